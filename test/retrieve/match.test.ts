import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { isUsageError } from '../../src/core/errors.js';
import { globHazard } from '../../src/core/glob-hazard.js';
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

describe('globs that backtrack', () => {
  // `*a*a…*ab` over a long name of a's: picomatch's regex tries every way the *s split it
  const long = `src/${'a'.repeat(248)}.ts`;

  it('refuses a glob with more than four * wildcards, or over 1,024 characters, in one line', () => {
    expect(globHazard('**/*.test.*')).toBeUndefined();
    expect(globHazard('src/**/a*b*c*d.ts')).toBeUndefined();
    expect(globHazard('*a*a*a*a*ab')).toMatch(/^a glob may hold at most 4 \* wildcards besides \*\* \(this one holds 5/);
    expect(globHazard('+(a|b)+(a|b)+(a|b)*a*b')).toMatch(/this one holds 5/);
    expect(globHazard('x'.repeat(70_000))).toBe('a glob may hold at most 1,024 characters (this one holds 70,000)');
    expect(() => createPathMatcher(['*a*a*a*a*a*a*a*a*a*a*a*a*a*ab'])).toThrow(/^"\*a\*a\*a.*": a glob may hold at most 4 \* wildcards/);
  });

  it('gives up on a list that spends seconds over many long names, instead of running for ever', () => {
    const matches = createPathMatcher(['*a*a*a*ab'], { matchParents: true });
    const started = performance.now();
    let error: unknown;
    try {
      for (let i = 0; i < 10_000; i++) matches(`${long}${i}`);
    } catch (e) {
      error = e;
    }
    expect(isUsageError(error)).toBe(true);
    expect((error as Error).message).toBe('matching the globs "*a*a*a*ab" took over 2 s: a glob with several * backtracks on long names; write it with fewer');
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('matches many paths with sound globs without tripping the guard', () => {
    const matches = createPathMatcher(['**/*.test.*', 'build/', 'src/**/gen/*.ts'], { matchParents: true });
    let hits = 0;
    for (let i = 0; i < 200_000; i++) if (matches(`src/pkg${i % 100}/deep/dir/file${i}.test.ts`)) hits++;
    expect(hits).toBe(200_000);
  });

  it('matches globs of many ** and * segments over deep paths at once: one exclude ran for minutes, deaf to Ctrl-C', () => {
    // picomatch's regex for the whole path tried every way the **s and *s split 80 directories
    const deep = `${'a/'.repeat(80)}c.txt`;
    const wide = `${`${'a'.repeat(200)}/`.repeat(64)}c.txt`;
    const started = performance.now();
    for (const glob of ['**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b', '**/*a*/**/*a*/b', '*a*/**/*a*/**/b', '**/*a*a*/**/b']) {
      const matches = createPathMatcher([glob], { matchParents: true });
      expect(matches(deep), glob).toBe(false);
      expect(matches(wide), glob).toBe(false);
    }
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('reads sound globs as picomatch reads the whole path: files and their directories', () => {
    const globs = ['src/**', '**/*.ts', 'src/*.ts', '**/test/**', 'lib/**/gen/*.{js,ts}', '/build', 'docs/api', '**/a?c/**', 'src/[!x]*.ts', '{src,lib/core}/**/*.js', 'pkg/**/*', '.github/**', '**'];
    const paths = ['src/a.ts', 'src/x.ts', 'src/deep/b.ts', 'lib/core/x.js', 'lib/x/gen/y.js', 'lib/gen/z.ts', 'build/out.js', 'x/build/out.js', 'docs/api/index.md', 'docs/apis/x.md', 'q/abc/r.txt', 'test/x.py', 'a/test/b/c.py', 'pkg/m.go', '.github/workflows/ci.yml', 'README.md', 'lib/core/sub/w.js'];
    for (const glob of globs) {
      const whole = picomatch(glob.replace(/^\//, '').replace(/\[!/g, '[^'), { dot: true });
      const matches = createPathMatcher([glob]);
      for (const path of paths) expect(matches(path), `${glob} ${path}`).toBe(whole(path));
    }
    expect(() => createPathMatcher(['{a/b,c/d}{1..50}/**'])).toThrow(/may expand to at most 64 paths \(this one to 100\)/);
  });

  it('the settings refuse such a glob, from a config file or a flag, naming the field', async () => {
    const r = repo({ 'src/a.ts': 'export const a = 1;\n', 'ctxloop.config.json': '{"exclude": ["*a*a*a*a*a*a*a*a*a*a*a*a*a*ab"]}' });
    await expect(retrieve('a', { root: r.root, cache: false })).rejects.toMatchObject({ code: 'bad_option', message: expect.stringMatching(/^ctxloop\.config\.json: exclude\.0: a glob may hold at most 4 \* wildcards/) });
    await expect(retrieve('a', { root: repo({ 'a.ts': '' }).root, cache: false, include: ['x'.repeat(70_000)] })).rejects.toMatchObject({ code: 'bad_option', message: expect.stringContaining('a glob may hold at most 1,024 characters') });
  });
});
