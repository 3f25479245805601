import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultCacheDir } from '../cache/paths.js';
import { isOffValue, readEnv } from '../core/env.js';

/** Linux keeps a socket's path in 108 bytes with its terminating zero (macOS in 104). */
const MAX_SOCKET_PATH = process.platform === 'darwin' ? 103 : 107;

/**
 * Where servers listen: `server/` in the cache directory the environment names (`CTXLOOP_CACHE`,
 * relative to `cwd` as a run reads it), else in the user cache directory. Null with no home.
 */
export function serverDir(env: Record<string, string | undefined>, cwd: string): string | null {
  const named = readEnv(env, 'CTXLOOP_CACHE');
  const cache = named && !isOffValue(named) ? resolve(cwd, named) : defaultCacheDir(env);
  return cache === null ? null : join(cache, 'server');
}

/**
 * The socket of a server running this build of ctxloop: its name is a hash of this file's
 * path, size and modification time, so a rebuilt or reinstalled ctxloop never talks to a server
 * started from the code before it (that one stops when idle, or with `serve --stop`).
 */
export async function serverSocketPath(dir: string): Promise<string> {
  const self = fileURLToPath(import.meta.url);
  const { size, mtimeMs } = await stat(self);
  const build = createHash('sha1').update(`${self}\0${size}\0${mtimeMs}`).digest('hex').slice(0, 12);
  if (process.platform === 'win32') return `\\\\.\\pipe\\ctxloop-${createHash('sha1').update(dir).digest('hex').slice(0, 12)}-${build}`;
  return join(dir, `${build}.sock`);
}

/** Undefined when the path fits a Unix socket; else why it does not. */
export function socketPathProblem(path: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  const bytes = Buffer.byteLength(path);
  return bytes > MAX_SOCKET_PATH ? `the socket path ${path} is ${bytes} bytes, over the system's ${MAX_SOCKET_PATH}: set XDG_CACHE_HOME to a shorter directory` : undefined;
}
