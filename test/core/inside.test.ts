import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInsideRoot, leavesRoot } from '../../src/core/inside.js';
import { readInsideRoot } from '../../src/core/read-inside.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();

describe('isInsideRoot', () => {
  it('takes the root and what lies below it, not a sibling sharing its prefix', () => {
    expect(isInsideRoot('/r/app', '/r/app')).toBe(true);
    expect(isInsideRoot('/r/app', '/r/app/src/a.ts')).toBe(true);
    expect(isInsideRoot('/r/app/', '/r/app/src/a.ts')).toBe(true);
    expect(isInsideRoot('/r/app', '/r/app-old/a.ts')).toBe(false);
    expect(isInsideRoot('/r/app', '/r')).toBe(false);
  });
});

describe('leavesRoot', () => {
  it('is a way up or another drive, not a name that starts with two dots', () => {
    expect(leavesRoot('..')).toBe(true);
    expect(leavesRoot(`..${sep}x`)).toBe(true);
    expect(leavesRoot(join(sep, 'etc'))).toBe(true);
    expect(leavesRoot('..data')).toBe(false);
    expect(leavesRoot(`..data${sep}x`)).toBe(false);
    expect(leavesRoot('')).toBe(false);
    expect(leavesRoot('src')).toBe(false);
  });

  it('lets a scope directory named `..data` be searched (it was refused as outside the root)', async () => {
    const r = repo({ '..data/verify.ts': 'export function verifyEmail() {}\n', 'src/other.ts': 'export const other = 1;\n' });
    const result = await retrieve('verifyEmail', { root: r.root, cache: false, scope: ['..data'], threshold: 0 });
    expect(result.files.map((f) => f.path)).toEqual(['..data/verify.ts']);
    await expect(retrieve('verifyEmail', { root: r.root, cache: false, scope: ['../'] })).rejects.toMatchObject({ code: 'bad_scope' });
  });
});

describe('readInsideRoot while a directory on the path is swapped for a link out of the root', () => {
  it('never returns the file outside (the path was checked, then opened by name: a swap in between read it)', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'ctxloop-outside-'));
    const r = repo({ 'src/sub/secret.py': 'inside\n' });
    try {
      mkdirSync(join(outside, 'sub'));
      writeFileSync(join(outside, 'sub', 'secret.py'), 'OUTSIDE\n');
      symlinkSync(join(outside, 'sub'), join(r.root, 'src', 'swap'));
      // another process exchanges src/sub and the link src/swap, as fast as it can
      const swapper = spawn(process.execPath, ['-e', SWAP, join(r.root, 'src')], { stdio: 'ignore' });
      const root = realpathSync(r.root);
      const seen = { inside: 0, outside: 0 };
      try {
        const until = performance.now() + 2_000;
        while (performance.now() < until) {
          const read = await readInsideRoot(root, 'src/sub/secret.py', 1000);
          if ('bytes' in read) seen[read.bytes.toString() === 'OUTSIDE\n' ? 'outside' : 'inside']++;
        }
      } finally {
        swapper.kill('SIGKILL');
      }
      expect(seen.inside).toBeGreaterThan(0);
      expect(seen.outside).toBe(0);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, 15_000);
});

/** Swaps `<dir>/sub` and the link `<dir>/swap` by renames, for ever. */
const SWAP = `
const { renameSync } = require('node:fs');
const dir = process.argv[1];
for (;;) {
  try {
    renameSync(dir + '/sub', dir + '/tmp');
    renameSync(dir + '/swap', dir + '/sub');
    renameSync(dir + '/sub', dir + '/swap');
    renameSync(dir + '/tmp', dir + '/sub');
  } catch {}
}
`;
