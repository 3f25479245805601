import type { Stats } from 'node:fs';
import { lstat, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { isInsideRoot } from './inside.js';
import { isNotRegularFile, withRegularFile } from './regular-file.js';

/** Why a file was not read; `undefined` bytes always come with one. */
export type SkipReason = 'missing' | 'outside' | 'not_a_file' | 'too_large' | 'unreadable' | 'broken_link';

export type ReadOutcome = { bytes: Buffer } | { skipped: SkipReason };

/**
 * Reads a root-relative file safely: the real path (symlinks resolved) must stay under the real
 * root, only regular files are opened (a FIFO would block, a device never ends), and the size is
 * checked on the open handle so a file swapped after `stat` is still caught.
 */
export async function readInsideRoot(realRoot: string, relative: string, maxFileSize: number): Promise<ReadOutcome> {
  if (isAbsolute(relative)) return { skipped: 'outside' };
  let real: string;
  try {
    real = await realpath(resolve(realRoot, relative));
  } catch {
    // absent, or there as a link that leads nowhere or loops: a config file that is one was passed over in silence
    return { skipped: (await lstat(resolve(realRoot, relative)).then((info) => info.isSymbolicLink(), () => false)) ? 'broken_link' : 'missing' };
  }
  if (!isInsideRoot(realRoot, real)) return { skipped: 'outside' };
  try {
    const info = await stat(real);
    if (!info.isFile()) return { skipped: 'not_a_file' };
    if (info.size > maxFileSize) return { skipped: 'too_large' };
    // checked again on the open handle: the path may have become a FIFO or grown since stat, or a
    // directory on it a link out of the root (renamed in between realpath and open: a file from
    // outside was read, and shown, as the one inside)
    return await withRegularFile(real, async (handle, opened): Promise<ReadOutcome> => {
      if (!(await openedInside(realRoot, real, handle, opened))) return { skipped: 'outside' };
      return opened.size > maxFileSize ? { skipped: 'too_large' } : { bytes: await handle.readFile() };
    });
  } catch (error) {
    return { skipped: isNotRegularFile(error) ? 'not_a_file' : 'unreadable' };
  }
}

/**
 * Whether the file open as `handle` lies inside the root: where the kernel says it is (Linux:
 * `/proc/self/fd`), or else where `real` leads now, if that is the very file opened.
 */
async function openedInside(realRoot: string, real: string, handle: FileHandle, opened: Stats): Promise<boolean> {
  const at = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  if (at !== undefined && isAbsolute(at)) return isInsideRoot(realRoot, at);
  try {
    const now = await realpath(real);
    const info = await stat(now);
    return isInsideRoot(realRoot, now) && info.dev === opened.dev && info.ino === opened.ino;
  } catch {
    return false;
  }
}
