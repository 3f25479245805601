import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isInsideRoot, leavesRoot } from '../../src/core/inside.js';
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
