import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { makeIo } from '../cli/fake-io.js';
import { useTempRepos } from '../helpers/make-repo.js';

const makeRepo = useTempRepos();
const PROGRAM = {
  'src/a.ts': "import { b } from './b';\nexport function a() {\n  return b();\n}\n",
  'src/b.ts': "import { c } from './c';\nexport function b() {\n  return c();\n}\n",
  'src/c.ts': "import { a } from './a';\nexport function c() {\n  return a();\n}\n",
};

describe('ctxloop trace', () => {
  it('prints the call tree as JSON, the cycle cut where it closes', async () => {
    const repo = makeRepo(PROGRAM);
    const io = makeIo({ cwd: repo.root });
    expect(await main(['trace', '--symbol', 'a', '--direction', 'callees', '--depth', '4', '--json', '--no-cache'], io)).toBe(0);
    const result = JSON.parse(io.stdout.text);
    const b = result.definitions[0].callees[0];
    const c = b.callees[0];
    expect([b.symbol, b.file, c.symbol, c.file]).toEqual(['b', 'src/b.ts', 'c', 'src/c.ts']);
    expect(c.callees).toEqual([{ symbol: 'a', file: 'src/a.ts', line: 2, kind: 'function', callLine: 3, cycle_detected: true }]);
  });

  it('prints an indented tree by default', async () => {
    const repo = makeRepo(PROGRAM);
    const io = makeIo({ cwd: repo.root });
    expect(await main(['trace', '--symbol', 'b', '--direction', 'callers', '--depth', '3', '--no-cache'], io)).toBe(0);
    expect(io.stdout.text).toBe(['b  src/b.ts:2', '  called by a  src/a.ts:2 (line 3)', '    called by c  src/c.ts:2 (line 3)', '      called by b  src/b.ts:2 (line 3)  [cycle: already on this chain]', ''].join('\n'));
  });

  it('exits 2 with one line for a missing --symbol or a bad --direction or --depth', async () => {
    const repo = makeRepo(PROGRAM);
    const cases: Array<[string[], RegExp]> = [
      [['trace'], /^ctxloop: --symbol is required: the function, method or class to trace \(see ctxloop --help\)$/],
      [['trace', '--symbol', 'a', '--direction', 'up'], /^ctxloop: --direction must be one of callers, callees, both \(got "up"\)$/],
      [['trace', '--symbol', 'a', '--depth', '0'], /^ctxloop: --depth must be between 1 and 8 \(got 0\)$/],
      [['trace', '--symbol', 'a', '--dpeth', '2'], /^ctxloop: unknown flag --dpeth, did you mean --depth\?/],
    ];
    for (const [argv, message] of cases) {
      const io = makeIo({ cwd: repo.root });
      expect(await main(argv, io)).toBe(2);
      expect(io.stderr.text.trim()).toMatch(message);
      expect(io.stderr.text.trim().split('\n')).toHaveLength(1);
    }
  });

  it('explains every flag in --help', async () => {
    const io = makeIo();
    expect(await main(['help', 'trace'], io)).toBe(0);
    for (const flag of ['--symbol', '--direction', '--depth', '--root', '--json', '--scope', '--no-cache']) expect(io.stdout.text).toContain(flag);
  });
});
