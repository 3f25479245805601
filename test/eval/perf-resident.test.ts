import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startResident, type Resident } from '../../scripts/perf/measure.js';

// The long-lived process bench:perf times the library in: real retrievals from `dist/` (built by `npm test`).
describe('bench:perf resident process', () => {
  const dirs: string[] = [];
  let resident: Resident | undefined;
  afterEach(async () => {
    await resident?.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const temp = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxloop-resident-'));
    dirs.push(dir);
    return dir;
  };

  it('answers each request in order with its own timing, and a failed one with an error', async () => {
    const root = temp();
    writeFileSync(join(root, 'config.ts'), 'export function parseConfig(text: string) {\n  if (text === "") throw new Error("empty config");\n  return JSON.parse(text);\n}\n');
    writeFileSync(join(root, 'server.ts'), 'export function listen(port: number) {\n  return port;\n}\n');
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
    resident = startResident({ cwd: temp(), env });
    const first = await resident.run({ root, task: 'parseConfig throws on an empty config file', cache: join(temp(), 'cache') });
    expect(first.files).toBeGreaterThanOrEqual(1);
    expect(first.ms).toBeGreaterThan(0);
    expect(first.rssMb).toBeGreaterThan(10);
    await expect(resident.run({ root: join(root, 'missing'), task: 'parseConfig', cache: join(temp(), 'cache') })).rejects.toThrow(/resident run failed: .*root/);
    const again = await resident.run({ root, task: 'listen on a port', cache: join(temp(), 'cache') });
    expect(again.files).toBeGreaterThanOrEqual(1);
  });
});
