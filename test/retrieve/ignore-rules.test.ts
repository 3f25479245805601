import { describe, expect, it } from 'vitest';
import { listFilesByGlob, MAX_RULE_CHARS, MAX_RULES } from '../../src/retrieve/glob.js';
import { compileIgnoreRules, readIgnoreFiles } from '../../src/retrieve/ignore.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();

describe('the fallback listing (fast-glob and the ignore package)', () => {
  it(`applies at most ${MAX_RULES} ignore rules, shallow files first: thirty generated 1 MB .gitignore files took it past the heap limit`, async () => {
    const rules = Array.from({ length: MAX_RULES + 500 }, (_, i) => `gen_${i}.ts`);
    const r = repo({ '.gitignore': `${rules.join('\n')}\n`, 'pkg/.gitignore': 'local.ts\n', 'gen_0.ts': 'a', [`gen_${MAX_RULES + 100}.ts`]: 'b', 'pkg/local.ts': 'c', 'src/a.ts': 'd' }, { git: false });
    const listed = await listFilesByGlob({ root: r.root, scope: [], include: [], exclude: [], maxFileSize: 1_000_000, concurrency: 4 });
    // the first rules apply; those past the bound, and the deeper file's after them, do not, and are counted
    expect(listed.files.map((f) => f.path)).toEqual(['.gitignore', `gen_${MAX_RULES + 100}.ts`, 'pkg/.gitignore', 'pkg/local.ts', 'src/a.ts']);
    expect(listed.droppedRules).toBe(501);
    expect(listed.unsafeRules).toBe(0);
  });
});

describe('the fallback listing and many large ignore files', () => {
  it(`reads ignore files one at a time, shallow first, and none once ${MAX_RULES} rules are in (300 files of 500,000 rules read at once ran out of heap)`, async () => {
    const big = `${Array.from({ length: 1500 }, (_, i) => `r${i}`).join('\n')}\n`;
    const files: Record<string, string> = { '.gitignore': 'root_only.ts\n', 'src/a.ts': 'a' };
    for (let i = 0; i < 20; i++) files[`a/d${String(i).padStart(2, '0')}/.gitignore`] = big;
    const r = repo(files, { git: false });
    const read = await readIgnoreFiles(r.root, Object.keys(files).filter((f) => f.endsWith('.gitignore')));
    // the root's file, then two of 1,500 rules: 3,001 ≥ 2,000, and the other 18 are not read
    expect(read.files.map((f) => f.dir)).toEqual(['', 'a/d00', 'a/d01']);
    expect(read.unread).toBe(18);
    const rules = compileIgnoreRules(read);
    expect(rules.dropped).toBe(3001 - MAX_RULES + 18);
    expect(rules.ignores('root_only.ts')).toBe(true);
    expect(rules.ignores('a/d00/x/r5')).toBe(true);
  });
});

describe('the fallback listing and a rule no path can match', () => {
  it(`drops a rule longer than ${MAX_RULE_CHARS} characters (a regular expression too large for V8: the listing threw) and applies the others`, async () => {
    const r = repo({ '.gitignore': `${'?'.repeat(200_000)}\nsecret.txt\n`, 'secret.txt': 'a', 'src/a.ts': 'b' }, { git: false });
    const listed = await listFilesByGlob({ root: r.root, scope: [], include: [], exclude: [], maxFileSize: 1_000_000, concurrency: 4 });
    expect(listed.files.map((f) => f.path)).toEqual(['.gitignore', 'src/a.ts']);
    expect(listed.droppedRules).toBe(1);
    expect(listed.unsafeRules).toBe(1);
  });
});

describe('the fallback listing and a rule that backtracks', () => {
  it('drops a rule of many ** or * (the listing ran for minutes over a deep tree, deaf to Ctrl-C) and applies the others', async () => {
    const deep = `${'a/'.repeat(80)}c.txt`;
    const r = repo({ '.gitignore': '**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/b\n*a*a*a*a*ab\nsecret.txt\n', [deep]: 'x', 'secret.txt': 'a', 'src/a.ts': 'b' }, { git: false });
    const started = performance.now();
    const listed = await listFilesByGlob({ root: r.root, scope: [], include: [], exclude: [], maxFileSize: 1_000_000, concurrency: 4 });
    expect(listed.files.map((f) => f.path)).toEqual(['.gitignore', deep, 'src/a.ts']);
    expect(listed.droppedRules).toBe(2);
    expect(listed.unsafeRules).toBe(2);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('the fallback listing of a tree too large', () => {
  it('stops walking at its bound and says where (walking a whole machine, it ran out of heap)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/f${i}.ts`] = 'x';
    const r = repo(files, { git: false });
    const listed = await listFilesByGlob({ root: r.root, scope: [], include: [], exclude: [], maxFileSize: 1_000_000, concurrency: 4 }, 5);
    expect(listed.files).toHaveLength(5);
    expect(listed.stoppedAt).toBe(5);
    const whole = await listFilesByGlob({ root: r.root, scope: [], include: [], exclude: [], maxFileSize: 1_000_000, concurrency: 4 });
    expect(whole.files).toHaveLength(12);
    expect(whole.stoppedAt).toBeUndefined();
  });
});

describe('the fallback listing and a large .gitignore', () => {
  it('applies a .gitignore over 1 MB, as rg does (it was dropped whole), reading its head', async () => {
    // 1.5 MB: its first line is a rule, the rest comments; the cut falls between two lines
    const filler = Array.from({ length: 30_000 }, (_, i) => `# ${String(i).padStart(45, '0')}`).join('\n');
    const r = repo({ '.gitignore': `secret.env\n${filler}\n`, 'secret.env': 'a', 'src/a.ts': 'b' }, { git: false });
    const listed = await listFilesByGlob({ root: r.root, scope: [], include: [], exclude: [], maxFileSize: 1_000_000, concurrency: 4 });
    // (the .gitignore itself is over --max-filesize)
    expect(listed.files.map((f) => f.path)).toEqual(['src/a.ts']);
  });
});
