/**
 * Where the ripgrep binary is: `CTXLOOP_RG`, else the one bundled by @vscode/ripgrep, else
 * `rg` on PATH. Resolved in this one place, like @vscode/ripgrep's own `rgPath`.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { SearchError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { readEnv } from '../core/env.js';

export async function resolveRgPath(env: Record<string, string | undefined>, logger: Logger): Promise<string> {
  const configured = readEnv(env, 'CTXLOOP_RG');
  if (configured) {
    if (!(await isExecutableFile(configured))) {
      throw new SearchError('rg_not_found', `CTXLOOP_RG=${configured} is not an executable file: point it at a ripgrep binary or unset it`);
    }
    logger.debug(`ripgrep: ${configured} (from CTXLOOP_RG)`);
    return configured;
  }
  const bundled = await findBundledRg();
  if (bundled) {
    logger.debug(`ripgrep: ${bundled} (bundled by @vscode/ripgrep)`);
    return bundled;
  }
  const onPath = await findOnPath(env);
  if (onPath) {
    logger.debug(`ripgrep: ${onPath} (from PATH)`);
    return onPath;
  }
  throw new SearchError(
    'rg_not_found',
    "ripgrep not found: reinstall ctxloop so @vscode/ripgrep's platform package is present, set CTXLOOP_RG, or put rg on PATH",
  );
}

async function findBundledRg(): Promise<string | undefined> {
  try {
    // the module throws at import time when its platform package (@vscode/ripgrep-<os>-<arch>) is missing
    const { rgPath } = await import('@vscode/ripgrep');
    return (await isExecutableFile(rgPath)) ? rgPath : undefined;
  } catch {
    // not installed for this platform: PATH is the next place to look
    return undefined;
  }
}

async function findOnPath(env: Record<string, string | undefined>): Promise<string | undefined> {
  const dirs = (readEnv(env, 'PATH') ?? readEnv(env, 'Path') ?? '').split(delimiter).filter(Boolean);
  const names = process.platform === 'win32' ? ['rg.exe'] : ['rg'];
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return undefined;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    // missing, unreadable or not executable: not a usable rg
    return false;
  }
}
