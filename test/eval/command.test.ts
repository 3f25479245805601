import { existsSync, linkSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { evalCommand } from '../../src/eval/command.js';
import { makeMirror, type MirrorFixture } from './git-fixture.js';
import { memoryStream } from './memory-stream.js';

let fixture: MirrorFixture | undefined;
afterEach(() => fixture?.cleanup());

async function run(argv: string[], cwd = '/') {
  const stdout = memoryStream();
  const stderr = memoryStream();
  const code = await evalCommand(argv, { stdout, stderr, env: {}, cwd });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('evalCommand usage', () => {
  it.each([
    [[], '--dataset FILE is required'],
    [['--dataset', 'd.jsonl'], '--repos DIR is required'],
    [['--bogus'], 'unknown flag --bogus'],
    [['--dataset'], '--dataset needs a value'],
    [['--json=1'], '--json does not take a value'],
    [['stray'], 'unexpected argument "stray": eval takes flags only'],
    // an unset shell variable: the current directory became the work dir, a folder there named
    // like a mirror was replaced by a clone
    [['--dataset', 'd', '--repos', 'r', '--work', ''], '--work must not be empty'],
    [['--dataset', 'd', '--repos', 'r', '--out', ' '], '--out must not be empty'],
    [['--dataset', 'd', '--repos', 'r', '--only', ''], '--only must not be empty'],
    [['--dataset', '', '--repos', 'r'], '--dataset must not be empty'],
    [['--dataset', 'd', '--repos', 'r', '--work', 'a', '--work', 'b'], '--work given more than once'],
    [['--dataset', 'd', '--repos', 'r', '--limit', '-1'], '--limit needs a value (write --limit=-… for one starting with "-")'],
    [['--dataset', 'd', '--repos', 'r', '--method', 'grep'], '--method must be ctxloop or bm25 (got "grep")'],
    [['--dataset', 'd', '--repos', 'r', '--limit', '0'], '--limit must be a whole number ≥ 1 (got "0")'],
    [['--dataset', 'd', '--repos', 'r', '--max-cycles', '4'], '--max-cycles must be a whole number from 1 to 3 (got "4")'],
    [['--dataset', 'd', '--repos', 'r', '--only', '('], '--only is not a valid regular expression: "("'],
    [['--dataset', 'd', '--repos', 'r', '--method', 'bm25', '--compare-cycles'], '--compare-cycles needs --method ctxloop'],
  ])('%j → exit 2, one line on stderr', async (argv, message) => {
    const result = await run(argv);
    expect(result).toEqual({ code: 2, stdout: '', stderr: `ctxloop: ${message} (see ctxloop eval --help)\n` });
  });

  it('prints help on stdout', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: ctxloop eval --dataset FILE\.jsonl --repos DIR/);
    expect(result.stderr).toBe('');
  });

  it('reports a missing dataset or repos dir as usage, with JSON on stdout under --json', async () => {
    fixture = makeMirror();
    const missing = await run(['--dataset', 'none.jsonl', '--repos', fixture.reposDir, '--json'], fixture.workDir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ctxloop: cannot read dataset .*none\.jsonl: no such file\n$/);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'bad_option' } });
    const dataset = join(fixture.reposDir, 'd.jsonl');
    writeFileSync(dataset, JSON.stringify({ id: 't', repo: 'acme/widget', base_commit: fixture.base, task: 'x', gold_files: ['a'] }) + '\n');
    const noRepos = await run(['--dataset', dataset, '--repos', join(fixture.reposDir, 'nope')]);
    expect(noRepos).toMatchObject({ code: 2, stdout: '' });
    expect(noRepos.stderr).toMatch(/--repos .*nope is not a directory/);
    const noMatch = await run(['--dataset', dataset, '--repos', fixture.reposDir, '--only', 'zzz']);
    expect(noMatch.stderr).toMatch(/no task of .*d\.jsonl matches --only zzz/);
    // a regular expression that backtracks without end on the ids: it hung the command
    writeFileSync(dataset, JSON.stringify({ id: 'django__django-1234567890123456789', repo: 'acme/widget', base_commit: fixture.base, task: 'x', gold_files: ['a'] }) + '\n');
    const endless = await run(['--dataset', dataset, '--repos', fixture.reposDir, '--only', '(.*)*x$']);
    expect(endless).toMatchObject({ code: 2, stdout: '' });
    expect(endless.stderr).toMatch(/^ctxloop: --only \(\.\*\)\*x\$ took over 2 s to test the ids of 1 task\(s\) \(it backtracks without end\)\n.*write it without nested repetition/);
  });

  it('reports a records file or work dir it cannot use in one line, no stack (a directory, a file, a full disk)', async () => {
    fixture = makeMirror();
    const dataset = join(fixture.reposDir, 'd.jsonl');
    writeFileSync(dataset, JSON.stringify({ id: 't', repo: 'acme/widget', base_commit: fixture.base, task: 'x', gold_files: ['a'] }) + '\n');
    const base = ['--dataset', dataset, '--repos', fixture.reposDir, '--method', 'bm25'];
    const dirOut = await run([...base, '--work', fixture.workDir, '--out', fixture.workDir]);
    expect(dirOut).toMatchObject({ code: 2, stdout: '' });
    expect(dirOut.stderr).toMatch(/^ctxloop: --out .* is a directory: give a file to write the records to\n$/);
    const file = join(dirname(fixture.reposDir), 'w.jsonl');
    writeFileSync(file, '');
    const fileWork = await run([...base, '--work', file]);
    expect(fileWork).toMatchObject({ code: 2, stdout: '' });
    expect(fileWork.stderr).toMatch(/^ctxloop: --work .*w\.jsonl is not a directory\n$/);
    if (existsSync('/dev/full')) {
      const full = await run([...base, '--work', fixture.workDir, '--out', '/dev/full']);
      expect(full.code).toBe(1);
      expect(full.stderr).toMatch(/ctxloop: cannot write \/dev\/full: ENOSPC\n$/);
      expect(full.stderr).not.toMatch(/ at |this is a bug/);
    }
  });
});

describe('evalCommand guards what it does not own', () => {
  it('refuses a work dir that is, holds or lies in the mirrors, and records that would overwrite the dataset', async () => {
    fixture = makeMirror();
    const dataset = join(fixture.reposDir, 'd.jsonl');
    const text = JSON.stringify({ id: 't', repo: 'acme/widget', base_commit: fixture.base, task: 'x', gold_files: ['a'] }) + '\n';
    writeFileSync(dataset, text);
    const mirror = readdirSync(fixture.reposDir).sort();
    const base = ['--dataset', dataset, '--repos', fixture.reposDir, '--method', 'bm25'];
    // the same dir (the mirrors were deleted), a dir below it (its clone would be a mirror's neighbour), the dir above it
    for (const work of [fixture.reposDir, join(fixture.reposDir, 'work'), dirname(fixture.reposDir)]) {
      const result = await run([...base, '--work', work]);
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toMatch(/^ctxloop: --work .* overlaps --repos .*: the work dir's clones are reset and deleted, so give a directory apart from the mirrors\n$/);
    }
    const overwrite = await run([...base, '--work', fixture.workDir, '--out', dataset]);
    expect(overwrite).toMatchObject({ code: 2, stdout: '' });
    expect(overwrite.stderr).toMatch(/^ctxloop: --out .*d\.jsonl is the dataset: give another file for the records\n$/);
    expect(readFileSync(dataset, 'utf8')).toBe(text);
    expect(readdirSync(fixture.reposDir).sort()).toEqual(mirror);
  });

  it('writes records over earlier records only: not over a file of the user\'s, the dataset through a hard link, the mirrors or a checkout folder', async () => {
    fixture = makeMirror();
    const dataset = join(dirname(fixture.reposDir), 'd.jsonl');
    const text = JSON.stringify({ id: 't', repo: 'acme/widget', base_commit: fixture.base, task: 'x', gold_files: ['a'] }) + '\n';
    writeFileSync(dataset, text);
    const precious = join(dirname(fixture.reposDir), 'notes.jsonl');
    writeFileSync(precious, 'precious\n');
    const link = join(dirname(fixture.reposDir), 'link.jsonl');
    linkSync(dataset, link);
    const base = ['--dataset', dataset, '--repos', fixture.reposDir, '--method', 'bm25', '--work', fixture.workDir];
    for (const [out, said] of [
      [precious, 'holds something other than eval records: it is not written over (remove it or give another file)'],
      [link, 'holds something other than eval records'],
      [join(fixture.reposDir, 'HEAD.jsonl'), 'is inside --repos'],
      [join(fixture.workDir, 'acme+widget', 'records.jsonl'), 'is inside a folder of --work'],
    ] as const) {
      const result = await run([...base, '--out', out]);
      expect(result, out).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toContain(said);
    }
    expect(readFileSync(precious, 'utf8')).toBe('precious\n');
    expect(readFileSync(dataset, 'utf8')).toBe(text);
    // the records of an earlier run are written over, at the work dir's top or anywhere else
    const records = join(fixture.workDir, 'records.jsonl');
    expect((await run([...base, '--out', records])).code).toBe(0);
    expect((await run([...base, '--out', records])).code).toBe(0);
    expect(readFileSync(records, 'utf8').trim().split('\n')).toHaveLength(1);
  });
});

describe('evalCommand run', () => {
  it('runs bm25 end to end: the report alone on stdout, progress on stderr, records in --out', async () => {
    fixture = makeMirror({ 'src/auth.ts': 'export function verifyEmail(token) { return check(token); }\n', 'src/other.ts': 'export const unrelated = 1;\n' });
    const dataset = join(fixture.reposDir, 'd.jsonl');
    const line = (id: string, commit: string, gold: string) => JSON.stringify({ id, repo: 'acme/widget', base_commit: commit, task: 'verifyEmail fails', gold_files: [gold], language: 'ts' });
    writeFileSync(dataset, [line('t1', fixture.base, 'src/auth.ts'), line('t2', fixture.later, 'src/fix.ts'), line('t3', 'deadbeef', 'src/auth.ts')].join('\n') + '\n');
    const out = join(fixture.workDir, 'records.jsonl');
    const result = await run(['--dataset', dataset, '--repos', fixture.reposDir, '--method', 'bm25', '--work', fixture.workDir, '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ctxloop eval: bm25 on .*d\.jsonl, 3 tasks\n/);
    expect(result.stdout).toMatch(/\| all +\| +3 \| +33\.3 \|/);
    expect(result.stdout).toMatch(/\| ts +\| +3 \|.*\| +1 \|\n/);
    expect(result.stderr).toContain('3/3 t3');
    expect(result.stderr).toMatch(/ctxloop: t3 failed: checkout: base commit deadbeef of acme\/widget is not in its mirror/);
    const records = readFileSync(out, 'utf8').trim().split('\n').map((text) => JSON.parse(text));
    expect(records.map((record) => [record.id, record.ranking[0], record.error !== undefined])).toEqual([['t1', 'src/auth.ts', false], ['t2', 'src/auth.ts', false], ['t3', undefined, true]]);

    const json = await run(['--dataset', dataset, '--repos', fixture.reposDir, '--method', 'bm25', '--work', fixture.workDir, '--out', out, '--json', '--limit', '1']);
    expect(JSON.parse(json.stdout)).toMatchObject({ method: 'bm25', tasks: 1, overall: { n: 1, acc1: 100, failures: 0 }, languages: { ts: { n: 1 } } });
  });
});
