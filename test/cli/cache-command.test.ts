import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cacheFileFor } from '../../src/cache/store.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { useTempRepos } from '../helpers/make-repo.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import { makeIo } from './fake-io.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');
const repo = useTempRepos();
const tempDir = useTempDirs('ctxloop-cache-cli-');

describe('ctxloop cache', () => {
  it('stats shows what a run left for the root, clear removes it, stats then shows none', async () => {
    const r = repo({ 'src/verify.ts': 'export function verifyEmail(a: string) {\n  return a.includes("@");\n}\n' });
    const cache = tempDir();
    await retrieve('verifyEmail accepts anything', { root: r.root, cache, provider: 'offline' });

    const io = makeIo({ cwd: r.root });
    expect(await main(['cache', 'stats', '--cache', cache, '--json'], io)).toBe(0);
    const stats = JSON.parse(io.stdout.text);
    // the file's facts twice: read by patterns to rank it, from its syntax tree to pack it
    expect(stats).toMatchObject({ file: await cacheFileFor(cache, r.root), exists: true, corrupt: false, entries: { facts: 2 } });
    expect(stats.blobs.search).toBeGreaterThan(0);

    const text = makeIo({ cwd: r.root });
    expect(await main(['cache', 'stats', '--root', r.root, '--cache', cache], text)).toBe(0);
    expect(text.stdout.text).toMatch(/^cache of .*\n {2}file {5}.*\.json \(.* with the search index\)\n {2}entries {2}facts 2, scores 0, replies 0, stamps \d, results \d\n {2}beside {3}search index .*, tokens index /);

    const cleared = makeIo({ cwd: r.root });
    expect(await main(['cache', 'clear', '--cache', cache, '--json'], cleared)).toBe(0);
    // the file, the search index and the token counts
    expect(JSON.parse(cleared.stdout.text).removed).toHaveLength(3);
    expect(existsSync(await cacheFileFor(cache, r.root))).toBe(false);

    const after = makeIo({ cwd: r.root });
    expect(await main(['cache', 'stats', '--cache', cache, '--json'], after)).toBe(0);
    expect(JSON.parse(after.stdout.text)).toMatchObject({ exists: false, bytes: 0 });
  });

  it('takes the cache directory from CTXLOOP_CACHE, and clears every root with --all', async () => {
    const [a, b] = [repo({ 'a.ts': 'export const alpha = 1;\n' }), repo({ 'b.ts': 'export const beta = 1;\n' })];
    const cache = tempDir();
    await retrieve('alpha', { root: a.root, cache, provider: 'offline' });
    await retrieve('beta', { root: b.root, cache, provider: 'offline' });
    const io = makeIo({ cwd: a.root, env: { CTXLOOP_CACHE: cache } });
    expect(await main(['cache', 'clear', '--all'], io)).toBe(0);
    expect(io.stdout.text).toBe(`removed 6 files (the cache of every root in ${cache})\n`);
  });

  it('refuses a missing or unknown subcommand, an unknown flag and --all with stats, exit 2, one line', async () => {
    for (const [argv, message] of [
      [['cache'], /^ctxloop cache: what the cache holds/],
      [['cache', 'stat'], /^ctxloop: unknown cache command "stat", did you mean stats\?/],
      [['cache', 'stats', '--bogus'], /^ctxloop: unknown flag --bogus/],
      [['cache', 'stats', '--all'], /^ctxloop: --all goes with clear only/],
      [['cache', 'clear', '--all', '--root', '.'], /^ctxloop: --all and --root cannot be used together/],
      [['cache', 'stats', '--root', '/nonexistent/ctxloop'], /^ctxloop: root not found/],
    ] as const) {
      const io = makeIo({ cwd: tempDir() });
      expect(await main([...argv], io)).toBe(2);
      expect(io.stderr.text).toMatch(message);
      expect(io.stdout.text).toBe('');
    }
  });

  it('refuses a file where the cache directory should be (stats said "none yet", and no run could save there)', async () => {
    const r = repo({ 'a.ts': 'export const alpha = 1;\n' });
    const file = join(tempDir(), 'afile');
    writeFileSync(file, 'not a directory\n');
    for (const sub of ['stats', 'clear']) {
      const io = makeIo({ cwd: r.root });
      expect(await main(['cache', sub, '--cache', file], io)).toBe(2);
      expect(io.stderr.text.split('\n')[0]).toBe(`ctxloop: the cache directory ${file} is not a directory: no run can save a cache there`);
    }
  });

  it('prints its help on stdout with --help, exit 0', async () => {
    const io = makeIo();
    expect(await main(['cache', '--help'], io)).toBe(0);
    expect(io.stdout.text).toContain('ctxloop cache stats [--root DIR] [--cache DIR] [--json]');
    expect(io.stdout.text).toContain('--all');
  });
});

describe.runIf(process.getuid?.() === 0 && existsSync(BIN) && nobody() !== undefined)('ctxloop cache clear without the right to remove', () => {
  it('fails in one line naming the file, exit 1 (it said "removed 0 files", exit 0, the cache still there)', async () => {
    const base = tempDir();
    chmodSync(base, 0o755);
    const root = join(base, 'repo');
    const cache = join(base, 'cache');
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'src', 'verify.ts'), 'export function verifyEmail(a: string) {\n  return a.includes("@");\n}\n');
    await retrieve('verifyEmail accepts anything', { root, cache, provider: 'offline' });
    const store = await cacheFileFor(cache, root);
    chmodSync(cache, 0o755); // readable by others, writable by its owner alone
    const user = nobody()!;
    const out = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      execFile(process.execPath, [BIN, 'cache', 'clear', '--root', root, '--cache', cache], { uid: user.uid, gid: user.gid, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
        done({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^ctxloop: cannot clear the cache: .*\/cache\/\S+ cannot be removed \(EACCES\), nor \d+ more; 0 removed\n/);
    expect(existsSync(store)).toBe(true);
  });
});

function nobody(): { uid: number; gid: number } | undefined {
  try {
    return { uid: Number(execFileSync('id', ['-u', 'nobody']).toString().trim()), gid: Number(execFileSync('id', ['-g', 'nobody']).toString().trim()) };
  } catch {
    return undefined;
  }
}
