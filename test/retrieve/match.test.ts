import { describe, expect, it } from 'vitest';
import { createPathMatcher } from '../../src/retrieve/match.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();

describe('createPathMatcher reads globs as rg and .gitignore do', () => {
  it('anchors a glob with a leading slash at the root', () => {
    expect(createPathMatcher(['/src/**'])('src/a.ts')).toBe(true);
    expect(createPathMatcher(['/src/**'])('lib/src/a.ts')).toBe(false);
    expect(createPathMatcher(['/build'], { matchParents: true })('build/out.js')).toBe(true);
    expect(createPathMatcher(['/build'], { matchParents: true })('src/build/out.js')).toBe(false);
    // without the slash, a name matches at any depth
    expect(createPathMatcher(['build'], { matchParents: true })('src/build/out.js')).toBe(true);
  });

  it('matches a glob ending in a slash against directories only, and an include against a directory\'s files', () => {
    const dirs = createPathMatcher(['verify.ts/'], { matchParents: true });
    expect(dirs('verify.ts/in.ts')).toBe(true);
    expect(dirs('lib/verify.ts')).toBe(false);
    expect(createPathMatcher(['verify.ts/'])('verify.ts')).toBe(false);
    const anyDir = createPathMatcher(['**/'], { matchParents: true });
    expect(anyDir('top.ts')).toBe(false);
    expect(anyDir('src/a.ts')).toBe(true);
    expect(createPathMatcher(['src'], { matchParents: true })('lib/src/a.ts')).toBe(true);
    expect(createPathMatcher(['/src/'], { matchParents: true })('lib/src/a.ts')).toBe(false);
  });

  it('reads [!…] as a negated class (picomatch took it as the characters ! and s)', () => {
    const notS = createPathMatcher(['[!s]*.ts']);
    expect(notS('verify.ts')).toBe(true);
    expect(notS('schema.ts')).toBe(false);
    expect(notS('!x.ts')).toBe(true);
    expect(createPathMatcher(['[^s]*.ts'])('schema.ts')).toBe(false);
    // an escaped bracket stays a bracket
    expect(createPathMatcher(['\\[!x]'])('[!x]')).toBe(true);
  });

  it('gives the listing and the content scan one reading: no file lost between them', async () => {
    const r = repo({ 'src/verify.ts': 'export function verifyEmail(t: string) { return t; }\n', 'src/schema.ts': 'export const schema = { email: 1 };\n' });
    const paths = async (options: { include?: string[]; exclude?: string[] }) => {
      const result = await retrieve('verifyEmail email', { root: r.root, cache: false, threshold: 0, ...options });
      return result.files.map((f) => f.path).sort();
    };
    expect(await paths({ include: ['/src/**'] })).toEqual(['src/schema.ts', 'src/verify.ts']);
    expect(await paths({ include: ['[!s]*.ts'] })).toEqual(['src/verify.ts']);
    expect(await paths({ exclude: ['[!s]*.ts'] })).toEqual(['src/schema.ts']);
  });
});
