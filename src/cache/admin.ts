import { readdir, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CACHE_NAME, cacheFileFor } from './paths.js';
import { cacheFileSchema, LAYERS, type Layer } from './schema.js';
import { readRegularFile, withRegularFile } from '../core/regular-file.js';
import { NO_LINKS } from './atomic-file.js';
import { CtxloopError } from '../core/errors.js';

export interface CacheStats {
  file: string;
  exists: boolean;
  /** Bytes on disk: the store and its blobs. */
  bytes: number;
  /** Entries per layer. */
  entries: Record<Layer, number>;
  /** Blob files next to the store (the search index), by name. */
  blobs: Record<string, number>;
  /** Oldest and newest entry times (ms since epoch), when there are entries. */
  oldest?: number;
  newest?: number;
  /** The file exists but cannot be used (it will be moved aside on the next run). */
  corrupt: boolean;
  /** Something that is not a file (a directory) is where the store belongs: no run can write one. */
  notAFile?: boolean;
}

/** What the cache holds for a root (for `ctxloop cache stats`). Never throws for a missing or bad file. */
export async function cacheStats(dir: string, root: string): Promise<CacheStats> {
  const file = await cacheFileFor(dir, root);
  const entries = Object.fromEntries(LAYERS.map((l) => [l, 0])) as Record<Layer, number>;
  const stats: CacheStats = { file, exists: false, bytes: 0, entries, blobs: await blobSizes(file), corrupt: false };
  stats.bytes = Object.values(stats.blobs).reduce((sum, b) => sum + b, 0);
  try {
    const info = await stat(file);
    stats.exists = true;
    // a directory (or a FIFO) where the store should be: no store, and no run can write one there
    if (!info.isFile()) return { ...stats, corrupt: true, notAFile: true };
    stats.bytes += info.size;
    const parsed = cacheFileSchema.safeParse(JSON.parse(await readRegularFile(file, NO_LINKS)));
    if (!parsed.success) return { ...stats, corrupt: true };
    const times: number[] = [];
    for (const layer of LAYERS) {
      const values = Object.values(parsed.data[layer]);
      entries[layer] = values.length;
      for (const entry of values) times.push(entry.t);
    }
    if (times.length > 0) {
      stats.oldest = times.reduce((a, b) => Math.min(a, b));
      stats.newest = times.reduce((a, b) => Math.max(a, b));
    }
    return stats;
  } catch (error) {
    return stats.exists ? { ...stats, corrupt: error instanceof SyntaxError || stats.corrupt } : stats;
  }
}

async function blobSizes(file: string): Promise<Record<string, number>> {
  const prefix = basename(file).replace(/json$/, '');
  const out: Record<string, number> = {};
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return out; // no cache directory yet: no blobs
  }
  for (const name of names) {
    const blob = name.startsWith(prefix) && /^[0-9a-f]{16}\.([a-z0-9-]+)\.json$/.exec(name);
    if (!blob) continue;
    try {
      out[blob[1]!] = (await stat(join(dirname(file), name))).size;
    } catch {
      // removed meanwhile: not there to count
    }
  }
  return out;
}

/** The hashes of the `<hash>.json` files in `names` that open as a ctxloop store: `{"version": N, "root": …`. */
async function storesIn(dir: string, names: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const name of names) {
    if (!/^[0-9a-f]{16}\.json$/.test(name)) continue;
    let head = '';
    try {
      // regular files only, opened without blocking: a FIFO named like a store would hang the clear
      head = await withRegularFile(join(dir, name), async (file) => {
        const { buffer, bytesRead } = await file.read({ buffer: Buffer.alloc(256), position: 0 });
        return buffer.toString('utf8', 0, bytesRead);
      }, NO_LINKS);
    } catch {
      continue;
    }
    if (/^\{\s*"version"\s*:\s*\d+\s*,\s*"root"\s*:/.test(head)) out.add(name.slice(0, 16));
  }
  return out;
}

/**
 * Removes the cache of one root (its file, blobs, moved-aside copies, stray temp files), or of
 * every root when `root` is omitted. Only files named like ours are touched, and for every root
 * only the families whose store opens as ours (`storesIn`). Returns the paths removed.
 */
export async function clearCache(dir: string, root?: string): Promise<{ removed: string[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    // no cache there yet: nothing to remove; one that cannot be read is not cleared, and says so
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { removed: [] };
    throw new CtxloopError('fs_error', `cannot clear the cache: ${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  // `<hash>.`: the store, its blobs and their temp or moved-aside copies
  const prefix = root === undefined ? undefined : basename(await cacheFileFor(dir, root)).replace(/json$/, '');
  // every root: only the families whose store reads as ctxloop's (a directory given by mistake keeps its own files)
  const ours = prefix === undefined ? await storesIn(dir, names) : undefined;
  const removed: string[] = [];
  // A file that stays (a read-only mount, a directory this user cannot write) was counted as
  // nothing to remove: "removed 0 files", exit 0, the cache still there.
  const kept: Array<{ path: string; code: string }> = [];
  for (const name of names) {
    if (!CACHE_NAME.test(name) || (prefix !== undefined && !name.startsWith(prefix))) continue;
    if (ours !== undefined && !ours.has(name.slice(0, 16))) continue;
    const path = join(dir, name);
    try {
      await unlink(path);
      removed.push(path);
    } catch (error) {
      const { code = 'error' } = error as NodeJS.ErrnoException;
      if (code === 'ENOENT') continue; // gone already (a run's temporary file)
      if (code !== 'EISDIR' && code !== 'EPERM') {
        kept.push({ path, code });
        continue;
      }
      // An empty directory where a store belongs (every run warned it could not save) goes too;
      // one holding anything is not ours to empty. EPERM is also a file this user may not remove.
      await rmdir(path).then(
        () => removed.push(path),
        (failed: NodeJS.ErrnoException) => {
          if (failed.code === 'ENOTDIR') kept.push({ path, code });
        },
      );
    }
  }
  if (kept.length > 0) {
    const first = kept[0]!;
    throw new CtxloopError('fs_error', `cannot clear the cache: ${first.path} cannot be removed (${first.code})${kept.length > 1 ? `, nor ${kept.length - 1} more` : ''}; ${removed.length} removed`);
  }
  return { removed: removed.sort() };
}
