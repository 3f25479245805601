/** Opening a file that may not be one: the one way every reader here refuses FIFOs, devices and folders. */
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * `use`s the file, with its stat from the open handle, when it is a regular file. Anything else
 * in its place (a FIFO, which a plain open waits on for ever; a device; a directory) is refused
 * at once, with code `ENOTREG`.
 */
export async function withRegularFile<T>(file: string, use: (handle: FileHandle, info: Stats) => Promise<T>): Promise<T> {
  // non-blocking, so that opening a FIFO does not wait for a writer
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: 'ENOTREG' });
    return await use(handle, info);
  } finally {
    await handle.close();
  }
}

/** A regular file's text (`withRegularFile`). */
export function readRegularFile(file: string): Promise<string> {
  return withRegularFile(file, (handle) => handle.readFile('utf8'));
}

/** The code `withRegularFile` refuses a file with. */
export function isNotRegularFile(error: unknown): boolean {
  return (error as { code?: unknown }).code === 'ENOTREG';
}
