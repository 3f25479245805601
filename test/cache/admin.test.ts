import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheFileFor, cacheStats, clearCache, createCache, defaultCacheDir } from '../../src/cache/store.js';
import { facts, score } from './fixtures/entries.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs('ctxloop-cache-');

describe('cacheStats and clearCache', () => {
  it('report what a root holds and remove it, leaving other roots and foreign files', async () => {
    const dir = tempDir();
    const [rootA, rootB] = [tempDir(), tempDir()];
    expect(await cacheStats(dir, rootA)).toMatchObject({ exists: false, entries: { facts: 0, scores: 0 }, blobs: {}, corrupt: false });
    const a = await createCache({ dir, root: rootA });
    a.setFacts('k1', facts(1));
    a.setFacts('k2', facts(2));
    a.setScore('s', score);
    a.setReply('r', { a: 1 });
    a.writeBlob('search', { files: [] });
    await a.flush();
    const b = await createCache({ dir, root: rootB });
    b.setFacts('k', facts(3));
    await b.flush();
    writeFileSync(join(dir, 'notes.json'), '{}');
    // files named as a cache's are, in a directory given by mistake, but not ctxloop's: kept by clear --all
    writeFileSync(join(dir, '0123456789abcdef.json'), '{"name": "a user file"}');
    writeFileSync(join(dir, '0123456789abcdef.search.json'), '[]');

    const stats = await cacheStats(dir, rootA);
    const fileA = await cacheFileFor(dir, rootA);
    expect(stats).toMatchObject({ file: fileA, exists: true, entries: { facts: 2, scores: 1, replies: 1, stamps: 0 }, blobs: { search: `{"files":[]}`.length }, corrupt: false });
    expect(stats.bytes).toBeGreaterThan(12);
    expect(stats.newest! >= stats.oldest!).toBe(true);

    expect(await clearCache(dir, rootA)).toEqual({ removed: [fileA.replace(/\.json$/, '.search.json'), fileA].sort() });
    expect((await cacheStats(dir, rootB)).entries.facts).toBe(1);
    await clearCache(dir);
    expect(readdirSync(dir).sort()).toEqual(['0123456789abcdef.json', '0123456789abcdef.search.json', 'notes.json']);
    expect(await clearCache(join(dir, 'missing'))).toEqual({ removed: [] });
  });

  it('flag a corrupt file', async () => {
    const dir = tempDir();
    const root = tempDir();
    writeFileSync(await cacheFileFor(dir, root), '{ nope');
    expect(await cacheStats(dir, root)).toMatchObject({ exists: true, corrupt: true });
  });

  it('flag a directory where the store belongs, and clear it when empty (stats counted it as the store; clear left it, and every run warned)', async () => {
    const dir = tempDir();
    const root = tempDir();
    const file = await cacheFileFor(dir, root);
    mkdirSync(file);
    expect(await cacheStats(dir, root)).toMatchObject({ exists: true, corrupt: true, notAFile: true, bytes: 0 });
    expect((await clearCache(dir, root)).removed).toEqual([file]);
    expect(existsSync(file)).toBe(false);
    // one holding something is not ours to empty
    mkdirSync(file);
    writeFileSync(join(file, 'keep.txt'), 'x');
    expect((await clearCache(dir, root)).removed).toEqual([]);
    expect(existsSync(join(file, 'keep.txt'))).toBe(true);
  });
});

describe('defaultCacheDir', () => {
  it('honors XDG_CACHE_HOME from the given environment', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/tmp/xdg' })).toBe('/tmp/xdg/ctxloop');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '  ' })).toMatch(/ctxloop/);
    expect(defaultCacheDir({})).not.toMatch(/ctxloop-nodejs/);
  });

  it.runIf(process.platform === 'linux')("reads the home from the given environment, not the process's (a server runs with its clients')", () => {
    expect(defaultCacheDir({ HOME: '/home/someone' })).toBe('/home/someone/.cache/ctxloop');
    expect(defaultCacheDir({ HOME: '/home/someone', XDG_CACHE_HOME: '/tmp/xdg' })).toBe('/tmp/xdg/ctxloop');
    // a relative HOME names no home: the process's is used, as before
    expect(defaultCacheDir({ HOME: 'relative' })).toBe(defaultCacheDir({}));
  });
});
