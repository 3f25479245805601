import type { Entry } from './schema.js';

/**
 * The layer as it goes back to disk: what is on disk (other runs' entries included) with this
 * run's dirty entries laid over it (the newer stamp wins), then the oldest evicted down to
 * `maxEntries`.
 */
export function mergeLayer(
  disk: Record<string, Entry<unknown>>,
  memory: Record<string, Entry<unknown>>,
  dirty: ReadonlySet<string>,
  maxEntries: number,
): Record<string, Entry<unknown>> {
  const merged: Record<string, Entry<unknown>> = { ...disk };
  for (const key of dirty) {
    const mine = memory[key];
    const theirs = merged[key];
    if (mine && (!theirs || mine.t >= theirs.t)) merged[key] = mine;
  }
  return evictOldest(merged, maxEntries);
}

export function evictOldest(entries: Record<string, Entry<unknown>>, maxEntries: number): Record<string, Entry<unknown>> {
  const keys = Object.keys(entries);
  if (keys.length <= maxEntries) return entries;
  // Newest first; ties by key so every process evicts the same entries.
  keys.sort((a, b) => entries[b]!.t - entries[a]!.t || (a < b ? -1 : a > b ? 1 : 0));
  const kept: Record<string, Entry<unknown>> = {};
  for (const key of keys.slice(0, Math.max(0, maxEntries))) kept[key] = entries[key]!;
  return kept;
}
