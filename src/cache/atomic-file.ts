import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { readRegularFile } from '../core/regular-file.js';

/**
 * A lowdb adapter (structurally: `read`/`write`) for one JSON file. lowdb's own JSONFile writes
 * through a single fixed temp name, so two processes can interleave their writes; here every
 * write goes to a temp file of its own in the same directory and is renamed over the target,
 * which is atomic: a reader sees the old file or the new one, never a mix.
 */
export interface JsonFile {
  /** Parsed content, or null when the file does not exist. Throws SyntaxError on bad JSON. */
  read(): Promise<unknown>;
  write(data: unknown): Promise<void>;
}

export function createJsonFile(file: string): JsonFile {
  return {
    async read() {
      let text: string;
      try {
        text = await readRegularFile(file);
      } catch (error) {
        // ENOTDIR: a parent is a file, so this file cannot exist either.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return null;
        throw error;
      }
      return JSON.parse(text) as unknown;
    },
    async write(data) {
      const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temp, JSON.stringify(data));
        await rename(temp, file);
      } catch (error) {
        await unlink(temp).catch(() => undefined); // Best effort: the write already failed.
        throw error;
      }
    },
  };
}
