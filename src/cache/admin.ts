import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CACHE_NAME, cacheFileFor } from './paths.js';
import { cacheFileSchema } from './schema.js';

export interface CacheStats {
  file: string;
  exists: boolean;
  bytes: number;
  facts: number;
  scores: number;
  /** Oldest and newest entry times (ms since epoch), when there are entries. */
  oldest?: number;
  newest?: number;
  /** The file exists but cannot be used (it will be moved aside on the next run). */
  corrupt: boolean;
}

/** What the cache holds for a root (for `ctxloop cache stats`). Never throws for a missing or bad file. */
export async function cacheStats(dir: string, root: string): Promise<CacheStats> {
  const file = await cacheFileFor(dir, root);
  const stats: CacheStats = { file, exists: false, bytes: 0, facts: 0, scores: 0, corrupt: false };
  try {
    stats.bytes = (await stat(file)).size;
    stats.exists = true;
    const parsed = cacheFileSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (!parsed.success) return { ...stats, corrupt: true };
    const times = [...Object.values(parsed.data.facts), ...Object.values(parsed.data.scores)].map((e) => e.t);
    stats.facts = Object.keys(parsed.data.facts).length;
    stats.scores = Object.keys(parsed.data.scores).length;
    if (times.length > 0) {
      stats.oldest = Math.min(...times);
      stats.newest = Math.max(...times);
    }
    return stats;
  } catch (error) {
    return stats.exists ? { ...stats, corrupt: error instanceof SyntaxError || stats.corrupt } : stats;
  }
}

/**
 * Removes the cache of one root (its file, moved-aside copies, stray temp files), or of every
 * root when `root` is omitted. Only files named like ours are touched. Returns the paths removed.
 */
export async function clearCache(dir: string, root?: string): Promise<{ removed: string[] }> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { removed: [] };
  }
  const prefix = root === undefined ? undefined : basename(await cacheFileFor(dir, root));
  const removed: string[] = [];
  for (const name of names) {
    if (!CACHE_NAME.test(name) || (prefix !== undefined && !name.startsWith(prefix))) continue;
    try {
      await unlink(join(dir, name));
      removed.push(join(dir, name));
    } catch {
      // Gone already, or not ours to remove: either way nothing is left to do.
    }
  }
  return { removed: removed.sort() };
}
