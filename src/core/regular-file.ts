/** Opening a file that may not be one: the one way every reader here refuses FIFOs, devices and folders. */
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { throwIfAborted } from './errors.js';

/**
 * `use`s the file, with its stat from the open handle, when it is a regular file. Anything else
 * in its place (a FIFO, which a plain open waits on for ever; a device; a directory) is refused
 * at once, with code `ENOTREG`. With `follow: false` a symbolic link in its place is refused too
 * (`ELOOP`), for files only ctxloop writes (its cache: a link planted there pointed anywhere).
 */
export async function withRegularFile<T>(file: string, use: (handle: FileHandle, info: Stats) => Promise<T>, { follow = true }: { follow?: boolean } = {}): Promise<T> {
  // non-blocking, so that opening a FIFO does not wait for a writer
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (follow ? 0 : (constants.O_NOFOLLOW ?? 0)));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: 'ENOTREG' });
    return await use(handle, info);
  } finally {
    await handle.close();
  }
}

/** A regular file's text (`withRegularFile`). */
export function readRegularFile(file: string, options?: { follow?: boolean }): Promise<string> {
  return withRegularFile(file, (handle) => handle.readFile('utf8'), options);
}

/** The code `withRegularFile` refuses a file with. */
export function isNotRegularFile(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ENOTREG';
}

/** How long a read of a FIFO or device with nothing to give yet waits before it tries again. */
const RETRY_MS = 10;
/** How long a FIFO with no writer is waited on before it reads as empty. */
const WRITER_GRACE_MS = 500;

/**
 * The bytes of a file named on the command line, whatever it is, in chunks: a regular file read as
 * usual; a FIFO, a pipe (`--task-file <(…)`) or a device read without blocking, so that no read
 * waits in a thread a signal cannot stop. A plain open of a FIFO no one writes to waited for ever,
 * and took Node's exit with it (SIGTERM and a second Ctrl-C were ignored): opened non-blocking, it
 * reads as empty once no writer has come for half a second; one being written to is read to its
 * end. A directory is refused (`EISDIR`). The caller bounds how much it takes; the file is closed
 * when it stops.
 */
export async function* readChunks(file: string, signal?: AbortSignal, chunkBytes = 64 * 1024): AsyncGenerator<Buffer> {
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw Object.assign(new Error(`${file} is a directory`), { code: 'EISDIR' });
    const opened = performance.now();
    let heard = false;
    for (;;) {
      const buffer = Buffer.allocUnsafe(chunkBytes);
      let read: number;
      try {
        ({ bytesRead: read } = await handle.read(buffer, 0, chunkBytes, null));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
        // a writer slow to write: Ctrl-C and SIGTERM stop the wait
        throwIfAborted(signal);
        await new Promise((resume) => setTimeout(resume, RETRY_MS));
        continue;
      }
      if (read === 0) {
        // a writer blocked in its open wakes when this open lets it: give it a moment to arrive
        if (info.isFIFO() && !heard && performance.now() - opened < WRITER_GRACE_MS) {
          throwIfAborted(signal);
          await new Promise((resume) => setTimeout(resume, RETRY_MS));
          continue;
        }
        return;
      }
      heard = true;
      yield buffer.subarray(0, read);
    }
  } finally {
    await handle.close();
  }
}
