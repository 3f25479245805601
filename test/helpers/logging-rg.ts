import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../../src/core/log.js';
import { resolveRgPath } from '../../src/retrieve/rg-path.js';

export interface LoggingRg {
  /** The script to point `CTXLOOP_RG` at. */
  path: string;
  /** Every command line it was given, in order. */
  runs(): string[];
  /** Content searches among them (`--only-matching`), not listings. */
  searches(): number;
  reset(): void;
}

/** A real ripgrep behind a script that writes down every command line it is given. */
export async function loggingRg(dir: string): Promise<LoggingRg> {
  const real = await resolveRgPath(process.env, silentLogger);
  const log = join(dir, 'rg.log');
  const path = join(dir, 'rg.sh');
  writeFileSync(path, `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(path, 0o755);
  writeFileSync(log, '');
  const runs = (): string[] => readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { path, runs, searches: () => runs().filter((l) => l.includes('--only-matching')).length, reset: () => writeFileSync(log, '') };
}
