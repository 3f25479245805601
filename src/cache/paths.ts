import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import envPaths from 'env-paths';
import { readEnv } from '../core/env.js';

/**
 * The user cache directory for ctxloop (`~/.cache/ctxloop` on Linux, `~/Library/Caches/ctxloop`
 * on macOS, `%LOCALAPPDATA%\ctxloop\Cache` on Windows). `XDG_CACHE_HOME` from `env` wins on every
 * platform, and `HOME` from `env` names the home elsewhere than Windows: env-paths reads
 * `process.env` once, at import, and `ctxloop serve` runs commands with its clients'
 * environments, not its own. Null when no home directory can be found.
 */
export function defaultCacheDir(env: Record<string, string | undefined>): string | null {
  const xdg = readEnv(env, 'XDG_CACHE_HOME');
  if (xdg) return join(resolve(xdg), 'ctxloop');
  const home = readEnv(env, 'HOME');
  if (home && isAbsolute(home) && process.platform !== 'win32') return process.platform === 'darwin' ? join(home, 'Library', 'Caches', 'ctxloop') : join(home, '.cache', 'ctxloop');
  try {
    return envPaths('ctxloop', { suffix: '' }).cache;
  } catch {
    return null;
  }
}

/** One file per root: `<dir>/<sha1(realpath root) first 16 hex>.json`. */
export async function cacheFileFor(dir: string, root: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(root);
  } catch {
    real = resolve(root);
  }
  return join(dir, `${createHash('sha1').update(real).digest('hex').slice(0, 16)}.json`);
}

/** Names this cache writes in its directory: the file, its blobs, moved-aside copies and temp files. */
export const CACHE_NAME = /^[0-9a-f]{16}(?:\.[a-z0-9-]+)?\.json(?:\.corrupt-\d+|\.\d+\.[0-9a-f]+\.tmp)?$/;
