import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeRun, makeIo } from './fake-io.js';

describe('retrieve --deep [--depth N]', () => {
  it('passes deep mode and its depth to the run', async () => {
    const run = fakeRun();
    expect(await main(['retrieve', '--task', 'x', '--deep', '--depth', '3'], makeIo(), run)).toBe(0);
    expect(run.calls[0]!.options).toMatchObject({ deep: true, deepDepth: 3 });
    const plain = fakeRun();
    expect(await main(['retrieve', '--task', 'x'], makeIo(), plain)).toBe(0);
    expect(plain.calls[0]!.options.deep).toBeUndefined();
  });

  it('refuses --depth without --deep, and a depth out of range, with one line and exit 2', async () => {
    for (const [argv, message] of [
      [['retrieve', '--task', 'x', '--depth', '2'], 'ctxloop: --depth needs --deep (it sets how many hops deep mode follows) (see ctxloop --help)\n'],
      [['retrieve', '--task', 'x', '--deep', '--depth', '9'], 'ctxloop: --depth must be between 1 and 5 (got 9)\n'],
    ] as const) {
      const io = makeIo();
      const run = fakeRun();
      expect(await main([...argv], io, run)).toBe(2);
      expect(io.stderr.text).toBe(message);
      expect(run.calls).toHaveLength(0);
    }
  });

  it('explains both flags in --help', async () => {
    const io = makeIo();
    expect(await main(['retrieve', '--help'], io)).toBe(0);
    expect(io.stdout.text).toMatch(/--deep +after the loop, follow callers, callees and imports/);
    expect(io.stdout.text).toMatch(/--depth N +hops --deep follows, 1-5 \(default: 2\)/);
  });
});
