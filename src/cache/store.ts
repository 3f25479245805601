import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Low } from 'lowdb';
import { makeDirectory } from '../core/make-directory.js';
import { isNotRegularFile } from '../core/regular-file.js';
import type { Cache, FileStamp, MemoEntry } from '../core/deps.js';
import { CacheError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/log.js';
import type { FileFacts, Score } from '../core/types.js';
import { createJsonFile } from './atomic-file.js';
import { createBlobs } from './blobs.js';
import { mergeLayer } from './merge.js';
import { cacheFileFor } from './paths.js';
import { cacheFileSchema, emptyCacheFile, factsSchema, LAYERS, memoSchema, replySchema, scoreSchema, stampSchema, type CacheFile, type Layer } from './schema.js';

export { cacheStats, clearCache, type CacheStats } from './admin.js';
export { createMemoryCache } from './memory.js';
export { cacheFileFor, defaultCacheDir } from './paths.js';

export interface CacheOptions {
  /** Cache directory (created on first write). */
  dir: string;
  /** Repository root: one cache file per root. */
  root: string;
  logger?: Logger;
  /**
   * Entries kept per layer (facts, scores, replies, stamps); the least recently used go first.
   * @default 50000
   */
  maxEntries?: number;
  /**
   * Whole results kept (the `results` layer): each is the size of a result, and the file is read at
   * every start, so far fewer.
   * @default 100
   */
  maxResults?: number;
}

/** An entry older than this is re-stamped when read, so what is still used is not evicted. */
const TOUCH_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The lowdb-backed cache of one root. Reads are from memory; `set*` only marks entries dirty;
 * `flush()` re-reads the file, merges this process's entries into it and renames a fresh copy
 * over it, so concurrent runs can lose each other's newest entries but never corrupt the file.
 * A corrupt, truncated or older-format file is moved aside; an unwritable directory leaves the
 * cache in memory. Blobs (`blobs.ts`) sit next to the file. Never throws.
 */
export async function createCache({ dir, root, logger = silentLogger, maxEntries = 50_000, maxResults = 100 }: CacheOptions): Promise<Cache> {
  const file = await cacheFileFor(dir, root);
  const json = createJsonFile(file);
  const db = new Low<CacheFile>(
    {
      read: async () => {
        const raw = await json.read();
        if (raw === null) return null;
        const parsed = cacheFileSchema.safeParse(raw);
        if (!parsed.success) throw new CacheError('cache_error', `unexpected shape (${parsed.error.issues[0]?.path.join('.') || 'top level'})`);
        return parsed.data;
      },
      write: (data) => json.write(data),
    },
    emptyCacheFile(root),
  );
  const blobs = createBlobs(file);
  const dirty = Object.fromEntries(LAYERS.map((l) => [l, new Set<string>()])) as Record<Layer, Set<string>>;
  const valid = Object.fromEntries(LAYERS.map((l) => [l, new Set<string>()])) as Record<Layer, Set<string>>;
  let readOnly = false;
  const blobsWarned = new Set<string>();
  let pending: Promise<void> = Promise.resolve();

  const stopWriting = (what: string, error: unknown): void => {
    if (readOnly) return;
    readOnly = true;
    // something other than a file where the store belongs (refused on reading, EISDIR on writing)
    const notRegular = isNotRegularFile(error) || (error as NodeJS.ErrnoException).code === 'EISDIR';
    logger.warn(`cache: cannot ${what} ${file}: ${describe(error)} (continuing without saving the cache${notRegular ? '; `ctxloop cache clear` removes what stands in its place, unless a directory holds files' : ''})`);
  };

  try {
    await db.read();
  } catch (error) {
    db.data = emptyCacheFile(root);
    if (error instanceof SyntaxError || error instanceof CacheError || standsInPlace(error)) await moveAside(file, error, logger);
    else stopWriting('read', error);
  }
  if (db.data.root !== root) db.data = { ...db.data, root };

  const get = <T>(layer: Layer, key: string, schema: { safeParse(v: unknown): { success: boolean } }): T | undefined => {
    const entry = db.data[layer][key];
    if (!entry) return undefined;
    if (!valid[layer].has(key)) {
      if (!schema.safeParse(entry.v).success) {
        delete db.data[layer][key];
        return undefined;
      }
      valid[layer].add(key);
    }
    const now = Date.now();
    if (now - entry.t > TOUCH_AFTER_MS) {
      entry.t = now;
      dirty[layer].add(key);
    }
    return entry.v as T;
  };

  const set = (layer: Layer, key: string, value: unknown): void => {
    db.data[layer][key] = { v: value, t: Date.now() };
    valid[layer].add(key);
    dirty[layer].add(key);
  };

  const write = async (): Promise<void> => {
    if (readOnly || (LAYERS.every((l) => dirty[l].size === 0) && !blobs.dirty)) return;
    try {
      await makeDirectory(dirname(file));
      // a blob that cannot be written costs that blob, not the store (it turned the whole cache off)
      for (const { file: blob, error } of await blobs.write()) {
        if (blobsWarned.has(blob)) continue;
        blobsWarned.add(blob);
        logger.warn(`cache: cannot write ${blob}: ${describe(error)} (that part of the cache is rebuilt each run)`);
      }
      if (LAYERS.every((l) => dirty[l].size === 0)) return;
      let disk: CacheFile | null = null;
      try {
        disk = (await db.adapter.read()) ?? null;
      } catch {
        disk = null; // Broken on disk since we loaded it: ours replaces it.
      }
      const base = disk ?? emptyCacheFile(root);
      const merged = emptyCacheFile(root);
      for (const layer of LAYERS) merged[layer] = mergeLayer(base[layer], db.data[layer], dirty[layer], layer === 'results' ? maxResults : maxEntries);
      db.data = merged;
      await db.write();
      for (const layer of LAYERS) dirty[layer].clear();
    } catch (error) {
      stopWriting('write', error);
    }
  };

  return {
    getFacts: (key) => get<FileFacts>('facts', key, factsSchema),
    setFacts: (key, facts) => set('facts', key, facts),
    getScore: (key) => get<Score>('scores', key, scoreSchema),
    setScore: (key, score) => set('scores', key, score),
    getReply: (key) => get<unknown>('replies', key, replySchema),
    setReply: (key, value) => set('replies', key, value),
    getStamp: (path) => get<FileStamp>('stamps', path, stampSchema),
    setStamp: (path, stamp) => set('stamps', path, stamp),
    getResult: (key) => get<MemoEntry>('results', key, memoSchema),
    setResult: (key, entry) => set('results', key, entry),
    async readBlob(name) {
      try {
        return await blobs.read(name);
      } catch (error) {
        // a broken blob is a miss: it is rebuilt and rewritten by whoever asked for it
        logger.warn(`cache: ignoring unreadable ${name} cache next to ${file}: ${describe(error)}`);
        return undefined;
      }
    },
    writeBlob: (name, value) => blobs.set(name, value),
    flush() {
      // Flushes run one after another: two in flight would merge from the same stale read.
      pending = pending.then(write);
      return pending;
    },
  };
}

/**
 * A link or a FIFO where the store belongs (planted in a cache kept inside a repository): it was
 * not opened, and renaming it moves the entry itself, never what it points at, so it is moved
 * aside like a corrupt file and the cache works again (left in place, it turned the cache off
 * for every later run).
 */
function standsInPlace(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ELOOP' || isNotRegularFile(error);
}

/** Copies of a broken store kept for a look: a store broken again and again (a full disk) must not fill the cache directory. */
const KEEP_ASIDE = 2;

async function moveAside(file: string, error: unknown, logger: Logger): Promise<void> {
  const aside = `${file}.corrupt-${Date.now()}`;
  try {
    await rename(file, aside);
    logger.warn(`cache: ${file} is unreadable (${describe(error)}); moved to ${aside}, starting empty`);
  } catch (renameError) {
    logger.warn(`cache: ${file} is unreadable (${describe(error)}) and could not be moved aside (${describe(renameError)}); starting empty`);
    return;
  }
  await dropOldCopies(file);
}

/** All but the newest `KEEP_ASIDE` copies moved aside from `file`; what cannot be removed stays. */
async function dropOldCopies(file: string): Promise<void> {
  const prefix = `${basename(file)}.corrupt-`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  const copies = names
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .sort((a, b) => Number(b.slice(prefix.length)) - Number(a.slice(prefix.length)));
  await Promise.all(copies.slice(KEEP_ASIDE).map((name) => rm(join(dirname(file), name), { force: true }).catch(() => undefined)));
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return code && !message?.includes(code) ? `${code}: ${message}` : (message ?? 'unknown error');
}
