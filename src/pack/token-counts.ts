/**
 * Token counts kept between runs in the cache's `tokens` blob, by a hash of the text: a run that
 * packs what an earlier one packed (the same regions of unchanged files) counts nothing, and need
 * not load the tokenizer. A count is exact either way; a hash is 64 bits of sha1.
 */
import { createHash } from 'node:crypto';
import type { Cache } from '../core/deps.js';

const BLOB = 'tokens';
/** Bump with the tokenizer or the way texts are counted: older counts are dropped. */
const FORMAT = 'o200k_base/1';
/** Counts kept at most (about 30 bytes each); the least recently used go first. */
export const MAX_COUNTS = 20_000;
/** A count older than this is re-stamped when used, so what is still used is not dropped. */
const TOUCH_AFTER_MS = 24 * 60 * 60 * 1000;

interface Stored {
  v: typeof FORMAT;
  /** Hash → [count, last used (ms since epoch)]. */
  counts: Record<string, [number, number]>;
}

export interface TokenCounts {
  /** Counts kept (0 on a cold cache). */
  readonly size: number;
  /** The kept count of `text`, or `count()`'s, kept for later runs. */
  count(text: string, count: () => number): number;
}

export async function createTokenCounts(cache: Cache | undefined, max = MAX_COUNTS): Promise<TokenCounts> {
  const counts = new Map<string, [number, number]>(Object.entries(parseCounts(cache && (await cache.readBlob(BLOB)))));
  let queued = false;
  const changed = (): void => {
    if (queued || !cache) return;
    queued = true;
    // built when the cache is flushed, with every count of this run
    cache.writeBlob(BLOB, { toJSON: (): Stored => ({ v: FORMAT, counts: Object.fromEntries(newest(counts, max)) }) });
  };
  return {
    get size() {
      return counts.size;
    },
    count(text, count) {
      if (text.length === 0) return 0;
      const key = createHash('sha1').update(text).digest('hex').slice(0, 16);
      const now = Date.now();
      const kept = counts.get(key);
      // a count no text of this size can have (0, or more tokens than bytes: every o200k token is
      // at least one byte) is a cache edited or damaged, and would pass a pack over the budget
      if (kept && (kept[0] < 1 || kept[0] > Buffer.byteLength(text))) counts.delete(key);
      else if (kept) {
        if (now - kept[1] > TOUCH_AFTER_MS) {
          kept[1] = now;
          changed();
        }
        return kept[0];
      }
      const n = count();
      counts.set(key, [n, now]);
      changed();
      return n;
    },
  };
}

function parseCounts(raw: unknown): Record<string, [number, number]> {
  // not yet written out (an in-memory cache, or before the flush): built as the flush would
  const value: unknown = typeof (raw as { toJSON?: unknown } | undefined)?.toJSON === 'function' ? (raw as { toJSON(): unknown }).toJSON() : raw;
  const stored = value as Partial<Stored> | undefined;
  if (typeof stored !== 'object' || stored === null || stored.v !== FORMAT || typeof stored.counts !== 'object' || stored.counts === null) return {};
  const out: Record<string, [number, number]> = {};
  for (const [key, entry] of Object.entries(stored.counts)) {
    if (Array.isArray(entry) && Number.isInteger(entry[0]) && entry[0] >= 0 && typeof entry[1] === 'number') out[key] = [entry[0], entry[1]];
  }
  return out;
}

/** The `max` most recently used counts (ties by key, so every process keeps the same ones). */
function newest(counts: Map<string, [number, number]>, max: number): Array<[string, [number, number]]> {
  const all = [...counts];
  if (all.length <= max) return all;
  return all.sort((a, b) => b[1][1] - a[1][1] || (a[0] < b[0] ? -1 : 1)).slice(0, max);
}
