import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { makeIo } from '../cli/fake-io.js';
import { useTempRepos } from '../helpers/make-repo.js';

const makeRepo = useTempRepos();
const PROGRAM = { 'app/parse.py': 'def parse_line(line):\n    raise ValueError("missing value for field")\n', 'app/cli.py': 'from app.parse import parse_line\n\ndef main():\n    parse_line("x")\n' };
const TRACE = ['Traceback (most recent call last):', '  File "/ci/proj/app/cli.py", line 4, in main', '  File "/ci/proj/app/parse.py", line 2, in parse_line', 'ValueError: missing value for field'].join('\n');

describe('ctxloop locate', () => {
  it('reads the error from a file and prints the suspects as JSON on stdout', async () => {
    const repo = makeRepo(PROGRAM);
    writeFileSync(join(repo.root, 'crash.log'), TRACE);
    const io = makeIo({ cwd: repo.root });
    expect(await main(['locate', '--error', 'crash.log', '--no-cache', '--json'], io)).toBe(0);
    const result = JSON.parse(io.stdout.text);
    expect(result.candidates.map((c: { path: string }) => c.path)).toEqual(['app/parse.py', 'app/cli.py']);
    expect(result.candidates[0]).toMatchObject({ line: 2, symbol: 'parse_line' });
    expect(result.candidates[0].confidence).toBeGreaterThan(0.8);
  });

  it('reads the error from stdin with --error -, and prints text by default', async () => {
    const repo = makeRepo(PROGRAM);
    const io = makeIo({ cwd: '/', stdin: TRACE });
    expect(await main(['locate', '--error', '-', '--root', repo.root, '--no-cache'], io)).toBe(0);
    expect(io.stdout.text.split('\n').slice(0, 3)).toEqual(['ValueError: missing value for field', '2 frames, 2 in the repository', expect.stringMatching(/^1\. app\/parse\.py:2 \(parse_line\)  0\.\d\d$/)]);
  });

  it('exits 2 with one line for an unreadable file, empty text, no text, or a bad --history-depth', async () => {
    const repo = makeRepo(PROGRAM);
    writeFileSync(join(repo.root, 'empty.log'), ' \n');
    const cases: Array<[string[], string | undefined, RegExp]> = [
      [['locate', '--error', 'nope.log'], undefined, /^ctxloop: --error: cannot read .*nope\.log \(no such file\)$/],
      [['locate', '--error', 'empty.log'], undefined, /^ctxloop: the error text is empty in empty\.log$/],
      [['locate'], undefined, /^ctxloop: no error text given \(see ctxloop --help\)$/],
      [['locate', '--error', '-'], '', /^ctxloop: the error text is empty$/],
      [['locate', '--error', 'x', '--history-depth', 'many'], undefined, /^ctxloop: --history-depth must be a whole number \(got "many"\)$/],
    ];
    for (const [argv, stdin, message] of cases) {
      const io = makeIo({ cwd: repo.root, ...(stdin === undefined ? {} : { stdin }) });
      expect(await main(argv, io)).toBe(2);
      expect(io.stderr.text.split('\n')[0]).toMatch(message);
      expect(io.stdout.text).toBe('');
    }
  });

  it('explains every flag in --help', async () => {
    const io = makeIo();
    expect(await main(['locate', '--help'], io)).toBe(0);
    for (const flag of ['--error', '--history-depth', '--root', '--json', '--scope', '--no-cache', '--quiet', '--verbose']) expect(io.stdout.text).toContain(flag);
  });
});
