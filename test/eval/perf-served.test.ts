import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServed, type Served } from '../../scripts/perf/measure.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');

// The server bench:perf times cold commands through: the real binary from `dist/` (built by `npm test`).
describe.runIf(existsSync(BIN))('bench:perf served runs', () => {
  const dirs: string[] = [];
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const temp = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxloop-served-'));
    dirs.push(dir);
    return dir;
  };

  it('times command lines the server runs, reports its peak RSS, and passes a failure through', async () => {
    const root = temp();
    writeFileSync(join(root, 'config.ts'), 'export function parseConfig(text: string) {\n  if (text === "") throw new Error("empty config");\n  return JSON.parse(text);\n}\n');
    writeFileSync(join(root, 'server.ts'), 'export function listen(port: number) {\n  return port;\n}\n');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
    const work = temp();
    served = await startServed(BIN, join(work, 'serve'), { cwd: work, env });
    const first = await served.run(['retrieve', '--root', root, '--task', 'parseConfig throws on an empty config file', '--format', 'paths', '--cache', join(work, 'cache')]);
    expect(first.code).toBe(0);
    expect(first.stdoutBytes).toBeGreaterThan('config.ts'.length);
    expect(first.ms).toBeGreaterThan(0);
    expect((await served.status()).peakRssMb).toBeGreaterThan(10);
    expect((await served.status()).served).toBe(1);
    const failed = await served.run(['retrieve', '--root', join(root, 'missing'), '--task', 'parseConfig']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/root/);
    expect((await served.status()).served).toBe(2);
  });
});
