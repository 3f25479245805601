import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isInsideRoot } from '../core/inside.js';

export interface StatStamp {
  mtimeMs: number;
  size: number;
  /** Compared for identity, never for settling: see `FileStamp`. */
  ctimeMs: number;
  /** Compared for identity: see `FileStamp`. */
  ino: number;
}

/**
 * A file's modification time, size and change time, read before its content, when it is a regular file
 * inside the root within the size limit. Taken first, so a file changed while being read keeps
 * a stamp older than its content and is hashed again next time, never trusted wrongly.
 */
export async function statInsideRoot(realRoot: string, relative: string, maxFileSize: number): Promise<StatStamp | undefined> {
  try {
    const real = await realpath(resolve(realRoot, relative));
    if (!isInsideRoot(realRoot, real)) return undefined;
    const info = await stat(real);
    return info.isFile() && info.size <= maxFileSize ? { mtimeMs: info.mtimeMs, size: info.size, ctimeMs: info.ctimeMs, ino: info.ino } : undefined;
  } catch {
    return undefined; // missing or unreadable: the read that follows says why
  }
}
