import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/log.js';
import { cacheFileFor, createCache, createMemoryCache } from '../../src/cache/store.js';
import { facts, score } from './fixtures/entries.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ctxloop-cache-'));
  temps.push(dir);
  return dir;
}

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, debug() {}, info() {}, warn: (m) => warnings.push(m), error() {} };
}


describe('createCache', () => {
  it('round-trips facts and scores across two instances, writing only on flush', async () => {
    const dir = join(tempDir(), 'nested', 'cache');
    const root = tempDir();
    const first = await createCache({ dir, root });
    first.setFacts('k1', facts(1));
    first.setScore('s1', score);
    first.setReply('r1', { keywords: ['a'] });
    first.setStamp('src/a.ts', { mtimeMs: 1, size: 2, ctimeMs: 3, ino: 4, hash: 'h' });
    const file = await cacheFileFor(dir, root);
    expect(existsSync(file)).toBe(false);
    await first.flush();
    expect(existsSync(file)).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 2, root, facts: { k1: { v: facts(1) } }, scores: { s1: { v: score } }, replies: { r1: { v: { keywords: ['a'] } } } });
    const second = await createCache({ dir, root });
    expect(second.getFacts('k1')).toEqual(facts(1));
    expect(second.getScore('s1')).toEqual(score);
    expect(second.getReply('r1')).toEqual({ keywords: ['a'] });
    expect(second.getStamp('src/a.ts')).toEqual({ mtimeMs: 1, size: 2, ctimeMs: 3, ino: 4, hash: 'h' });
    expect(second.getFacts('missing')).toBeUndefined();
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps one file per root', async () => {
    const dir = tempDir();
    const [a, b] = [tempDir(), tempDir()];
    expect(await cacheFileFor(dir, a)).not.toBe(await cacheFileFor(dir, b));
    expect(await cacheFileFor(dir, a)).toMatch(/[0-9a-f]{16}\.json$/);
  });

  it('moves a corrupt (truncated) file aside, warns, and starts empty', async () => {
    const dir = tempDir();
    const root = tempDir();
    const file = await cacheFileFor(dir, root);
    writeFileSync(file, '{"version":1,"root":"x","facts":{"k":{"v":');
    const logger = recordingLogger();
    const cache = await createCache({ dir, root, logger });
    expect(cache.getFacts('k')).toBeUndefined();
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/moved to .*\.corrupt-\d+/);
    expect(readdirSync(dir).some((name) => /\.json\.corrupt-\d+$/.test(name))).toBe(true);
    cache.setFacts('k', facts(2));
    await cache.flush();
    expect((await createCache({ dir, root })).getFacts('k')).toEqual(facts(2));
  });

  it('moves a store larger than any it writes aside unread (a 1.9 GB one failed every run and stayed, so the root had no cache)', async () => {
    const dir = tempDir();
    const root = tempDir();
    const file = await cacheFileFor(dir, root);
    // sparse: 300 MB of NULs that take no disk
    writeFileSync(file, '');
    truncateSync(file, 300 * 1024 * 1024);
    const logger = recordingLogger();
    const cache = await createCache({ dir, root, logger });
    expect(logger.warnings).toEqual([expect.stringMatching(/is unreadable \(cache_error: 300 MB, more than a cache file holds \(256 MB\)\); moved to .*\.corrupt-\d+, starting empty$/)]);
    cache.setFacts('k', facts(2));
    await cache.flush();
    expect((await createCache({ dir, root })).getFacts('k')).toEqual(facts(2));
  });

  it('keeps the newest two copies moved aside: a store broken run after run (a full disk) made one more each time', async () => {
    const dir = tempDir();
    const root = tempDir();
    const file = await cacheFileFor(dir, root);
    const other = `${await cacheFileFor(dir, tempDir())}.corrupt-1`;
    writeFileSync(other, 'another root: not touched');
    for (let i = 0; i < 5; i++) {
      writeFileSync(file, `{"broken":${i}`);
      await createCache({ dir, root, logger: recordingLogger() });
      await new Promise((resolve) => setTimeout(resolve, 5)); // another millisecond, another name
    }
    const aside = readdirSync(dir).filter((name) => name.startsWith(`${basename(file)}.corrupt-`));
    expect(aside).toHaveLength(2);
    expect(aside.map((name) => readFileSync(join(dir, name), 'utf8')).sort()).toEqual(['{"broken":3', '{"broken":4']);
    expect(readFileSync(other, 'utf8')).toBe('another root: not touched');
  });

  it('moves a file of the wrong shape aside, and drops single bad entries as misses', async () => {
    const dir = tempDir();
    const root = tempDir();
    const file = await cacheFileFor(dir, root);
    writeFileSync(file, JSON.stringify({ version: 99, entries: [] }));
    const logger = recordingLogger();
    await createCache({ dir, root, logger });
    expect(logger.warnings[0]).toMatch(/unexpected shape/);
    // the format before replies and stamps had layers of their own: rebuilt too
    writeFileSync(file, JSON.stringify({ version: 1, root, facts: {}, scores: {} }));
    await createCache({ dir, root, logger });
    expect(logger.warnings[1]).toMatch(/unexpected shape/);
    const now = Date.now();
    writeFileSync(file, JSON.stringify({ version: 2, root, facts: { good: { v: facts(1), t: now }, bad: { v: { path: 3 }, t: now } }, scores: {}, replies: {}, stamps: { 'a.ts': { v: { mtimeMs: 'x' }, t: now } } }));
    const cache = await createCache({ dir, root });
    expect(cache.getFacts('good')).toEqual(facts(1));
    expect(cache.getFacts('bad')).toBeUndefined();
    expect(cache.getStamp('a.ts')).toBeUndefined();
  });

  it('keeps blobs in files of their own, written on flush, and treats a broken one as absent with a warning', async () => {
    const dir = tempDir();
    const root = tempDir();
    const logger = recordingLogger();
    const cache = await createCache({ dir, root, logger });
    expect(await cache.readBlob('search')).toBeUndefined();
    cache.writeBlob('search', { files: ['a.ts'] });
    expect(await cache.readBlob('search')).toEqual({ files: ['a.ts'] });
    const blob = (await cacheFileFor(dir, root)).replace(/\.json$/, '.search.json');
    expect(existsSync(blob)).toBe(false);
    await cache.flush();
    expect(JSON.parse(readFileSync(blob, 'utf8'))).toEqual({ files: ['a.ts'] });
    expect(await (await createCache({ dir, root })).readBlob('search')).toEqual({ files: ['a.ts'] });
    writeFileSync(blob, '{"files": [');
    expect(await (await createCache({ dir, root, logger })).readBlob('search')).toBeUndefined();
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/ignoring unreadable search cache/);
  });

  it('still saves the store when a blob cannot be written (a directory planted at its name), warning once', async () => {
    const dir = tempDir();
    const root = tempDir();
    const blob = (await cacheFileFor(dir, root)).replace(/\.json$/, '.tokens.json');
    mkdirSync(join(blob, 'planted'), { recursive: true });
    const logger = recordingLogger();
    const cache = await createCache({ dir, root, logger });
    cache.setFacts('k', facts(1));
    cache.writeBlob('tokens', { a: 1 });
    cache.writeBlob('search', { files: ['a.ts'] });
    await cache.flush();
    cache.writeBlob('tokens', { a: 2 });
    await cache.flush();
    expect((await createCache({ dir, root })).getFacts('k')).toEqual(facts(1));
    expect(await (await createCache({ dir, root })).readBlob('search')).toEqual({ files: ['a.ts'] });
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/cannot write .*\.tokens\.json: EISDIR/);
  });

  it('keeps working in memory when the directory cannot be written, warning once and never throwing', async () => {
    // A directory under a regular file can't be created, whoever runs the test (root included).
    const blocker = join(tempDir(), 'file');
    writeFileSync(blocker, '');
    const logger = recordingLogger();
    const cache = await createCache({ dir: join(blocker, 'cache'), root: tempDir(), logger });
    cache.setFacts('k', facts(1));
    await expect(cache.flush()).resolves.toBeUndefined();
    cache.setFacts('k2', facts(2));
    await expect(cache.flush()).resolves.toBeUndefined();
    expect(cache.getFacts('k2')).toEqual(facts(2));
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]).toMatch(/cannot write .*continuing without saving/);
  });

  // Root writes into read-only directories anyway; the case above covers the behaviour there.
  it.skipIf(process.getuid?.() === 0)('does not throw on a read-only directory either', async () => {
    const parent = tempDir();
    chmodSync(parent, 0o500);
    const logger = recordingLogger();
    const cache = await createCache({ dir: join(parent, 'cache'), root: tempDir(), logger });
    cache.setFacts('k', facts(1));
    await expect(cache.flush()).resolves.toBeUndefined();
    expect(logger.warnings).toHaveLength(1);
  });

  it('evicts the oldest entries beyond maxEntries', async () => {
    const dir = tempDir();
    const root = tempDir();
    const cache = await createCache({ dir, root, maxEntries: 3 });
    for (let i = 0; i < 5; i++) {
      cache.setFacts(`k${i}`, facts(i));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await cache.flush();
    const reloaded = await createCache({ dir, root, maxEntries: 3 });
    expect([0, 1, 2, 3, 4].map((i) => reloaded.getFacts(`k${i}`) !== undefined)).toEqual([false, false, true, true, true]);
  });

  it('keeps whole results in a layer of their own, bounded apart (maxResults), and reads a file without it', async () => {
    const dir = tempDir();
    const root = tempDir();
    const result = (i: number) => ({ state: `s${i}`, result: { task: 't', root, provider: 'offline', files: [], candidates: [], gaps: [], cycles: [], usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 }, tokens: i } });
    const cache = await createCache({ dir, root, maxEntries: 10, maxResults: 2 });
    for (let i = 0; i < 3; i++) {
      cache.setResult(`r${i}`, result(i));
      cache.setFacts(`k${i}`, facts(i));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await cache.flush();
    const reloaded = await createCache({ dir, root, maxEntries: 10, maxResults: 2 });
    expect([0, 1, 2].map((i) => reloaded.getResult(`r${i}`)?.state)).toEqual([undefined, 's1', 's2']);
    expect([0, 1, 2].map((i) => reloaded.getFacts(`k${i}`) !== undefined)).toEqual([true, true, true]);
    expect(reloaded.getResult('r2')).toEqual(result(2));

    // a file written before the layer existed: read as having no results, its other entries kept
    const file = await cacheFileFor(dir, root);
    const older = JSON.parse(readFileSync(file, 'utf8'));
    delete older.results;
    writeFileSync(file, JSON.stringify(older));
    const logger = recordingLogger();
    const fromOlder = await createCache({ dir, root, logger });
    expect(fromOlder.getResult('r2')).toBeUndefined();
    expect(fromOlder.getFacts('k2')).toEqual(facts(2));
    expect(logger.warnings).toEqual([]);
  });
});

describe('createMemoryCache', () => {
  it('holds entries for the process only', async () => {
    const cache = createMemoryCache();
    cache.setFacts('k', facts(1));
    cache.setScore('s', score);
    cache.setReply('r', [1]);
    cache.setResult('m', { state: 's', result: { task: 't', root: '/', provider: 'offline', files: [], candidates: [], gaps: [], cycles: [], usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 }, tokens: 0 } });
    cache.writeBlob('search', { x: 1 });
    await cache.flush();
    expect(cache.getFacts('k')).toEqual(facts(1));
    expect(cache.getScore('s')).toEqual(score);
    expect(cache.getReply('r')).toEqual([1]);
    expect(cache.getResult('m')?.state).toBe('s');
    expect(await cache.readBlob('search')).toEqual({ x: 1 });
  });
});
