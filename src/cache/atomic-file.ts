import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { CacheError } from '../core/errors.js';
import { withRegularFile } from '../core/regular-file.js';

/**
 * A lowdb adapter (structurally: `read`/`write`) for one JSON file. lowdb's own JSONFile writes
 * through a single fixed temp name, so two processes can interleave their writes; here every
 * write goes to a temp file of its own in the same directory and is renamed over the target,
 * which is atomic: a reader sees the old file or the new one, never a mix.
 */
export interface JsonFile {
  /** Parsed content, or null when the file does not exist. Throws SyntaxError on bad JSON, CacheError on a file too large to be one. */
  read(): Promise<unknown>;
  write(data: unknown): Promise<void>;
}

/**
 * A cache file larger than this was not written by ctxloop (the store holds at most 50,000
 * entries a layer, the search index of 100,000 files is about 15 MB): it is refused unread, as a
 * corrupt one is. Read whole, a 1.9 GB one failed every run ("Invalid string length") and was
 * never moved aside, so the root had no cache until `cache clear`; 400 MB of garbage cost 900 MB.
 */
export const MAX_CACHE_FILE_BYTES = 256 * 1024 * 1024;

/**
 * Cache files are written by renaming a new file over them, so one is never a link: a link in
 * its place (planted in a cache a repository's config keeps inside the repository) is not
 * followed: refused with `ELOOP`, and nothing of what the link points at is read or printed. The
 * store moves such a link aside and starts empty; a blob's is replaced by its next write
 * (`cache clear` removes a link, not its target).
 */
export const NO_LINKS = { follow: false } as const;

export function createJsonFile(file: string): JsonFile {
  return {
    async read() {
      let text: string;
      try {
        text = await withRegularFile(file, async (handle, info) => {
          if (info.size > MAX_CACHE_FILE_BYTES) throw new CacheError('cache_error', `${Math.round(info.size / 1024 / 1024)} MB, more than a cache file holds (${MAX_CACHE_FILE_BYTES / 1024 / 1024} MB)`);
          return handle.readFile('utf8');
        }, NO_LINKS);
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
