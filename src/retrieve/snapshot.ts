/**
 * The search index kept between runs: which files held which scanned terms, and the stat
 * (modification time, size, change time) of every file when the index was taken. A later run lists the files,
 * stats them, and re-scans only the files that changed since; the rest of each term's counts are
 * read back, so a warm repeat of a task makes no pass over the repository.
 */
import { statSync } from 'node:fs';
import { sep } from 'node:path';
import { isSettledAt } from '../core/settle.js';

/** Bump when what a scan records changes, so older indexes are dropped (4: the stemmer keeps `string`). */
export const SNAPSHOT_FORMAT = 4;

/** One term's postings: the files (indexes into `files`, ascending) holding it, with their counts for keywords. */
export interface StoredTerm {
  /** Last used (ms since epoch): the least recently used terms are dropped first. */
  t: number;
  f: number[];
  /** Counts, parallel to `f` (keywords only). */
  n?: number[];
}

export interface Snapshot {
  v: typeof SNAPSHOT_FORMAT;
  /** What shaped the scans (scope, include, exclude, size limit, ripgrep): another key, another index. */
  key: string;
  /** When the stats were taken, before any scan they cover: a file modified since then is re-scanned. */
  takenAt: number;
  files: string[];
  mtimes: number[];
  sizes: number[];
  /** Inode change times: a file renamed over another of the same size and mtime (`mv`), or written and given its old mtime back, has a new one. */
  ctimes: number[];
  /** Inode numbers: two directories swapped (`mv a t; mv b a; mv t b`) leave each file's own times as they were, not its inode. */
  inos: number[];
  /** By term key (`k:`, `l:`, `s:` + the term). */
  terms: Record<string, StoredTerm>;
}

/** Postings kept at most, across terms: bounds the index file (about 10 bytes each). */
export const MAX_POSTINGS = 3_000_000;

/** More changed files than this (a branch switch): the index is dropped and terms are scanned anew. */
export const MAX_CHANGED = 5000;


export interface FileStats {
  mtimes: Float64Array;
  sizes: Float64Array;
  /** Inode change times: compared for identity only; settling goes by `mtimes` (setting an mtime moves the ctime to now). */
  ctimes: Float64Array;
  /** Inode numbers: compared for identity only. */
  inos: Float64Array;
  /** When the first stat was taken (ms since epoch). */
  takenAt: number;
}

/**
 * Stats every file (missing ones get NaN, so they always count as changed). Synchronous stats in
 * slices, with a turn of the event loop between them so rg's output keeps flowing: at 100,000
 * files this takes a quarter of a second, where one promise per file took twice as long.
 */
export async function statFiles(root: string, files: readonly string[]): Promise<FileStats> {
  const takenAt = Date.now();
  const mtimes = new Float64Array(files.length).fill(Number.NaN);
  const sizes = new Float64Array(files.length).fill(Number.NaN);
  const ctimes = new Float64Array(files.length).fill(Number.NaN);
  const inos = new Float64Array(files.length).fill(Number.NaN);
  const prefix = root.endsWith(sep) ? root : root + sep;
  const SLICE = 2000;
  for (let start = 0; start < files.length; start += SLICE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (let i = start; i < Math.min(files.length, start + SLICE); i++) {
      try {
        const info = statSync(prefix + files[i]!, { throwIfNoEntry: false });
        if (info) {
          mtimes[i] = info.mtimeMs;
          sizes[i] = info.size;
          ctimes[i] = info.ctimeMs;
          inos[i] = info.ino;
        }
      } catch {
        // unreadable since it was listed: NaN, a change
      }
    }
  }
  return { mtimes, sizes, ctimes, inos, takenAt };
}

/**
 * The files of `files` whose content may differ from what `snapshot` recorded: new files, files
 * whose stat (modification time, size or change time) differs, and files modified too close to
 * when the snapshot was taken.
 */
export function findChanged(snapshot: Snapshot, files: readonly string[], stats: FileStats): Set<string> {
  const known = new Map(snapshot.files.map((path, i) => [path, i]));
  const changed = new Set<string>();
  files.forEach((path, i) => {
    const at = known.get(path);
    const mtime = stats.mtimes[i]!;
    if (at === undefined || snapshot.mtimes[at] !== mtime || snapshot.sizes[at] !== stats.sizes[i] || snapshot.ctimes[at] !== stats.ctimes[i] || snapshot.inos[at] !== stats.inos[i] || !isSettledAt(mtime, snapshot.takenAt)) {
      changed.add(path);
    }
  });
  return changed;
}

/** A snapshot read back from the cache, or undefined when it is absent, of another key, or malformed. */
export function parseSnapshot(raw: unknown, key: string): Snapshot | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  // not yet written out (an in-memory cache, or before the flush): built on demand, as the flush would
  const value: unknown = typeof (raw as { toJSON?: unknown }).toJSON === 'function' ? (raw as { toJSON(): unknown }).toJSON() : raw;
  if (typeof value !== 'object' || value === null) return undefined;
  const s = value as Partial<Snapshot>;
  if (s.v !== SNAPSHOT_FORMAT || s.key !== key || typeof s.takenAt !== 'number') return undefined;
  if (!Array.isArray(s.files) || !Array.isArray(s.mtimes) || !Array.isArray(s.sizes) || !Array.isArray(s.ctimes) || !Array.isArray(s.inos) || typeof s.terms !== 'object' || s.terms === null) return undefined;
  const n = s.files.length;
  if (s.mtimes.length !== n || s.sizes.length !== n || s.ctimes.length !== n || s.inos.length !== n || !s.files.every((f) => typeof f === 'string')) return undefined;
  for (const term of Object.values(s.terms)) {
    if (typeof term !== 'object' || term === null || !Array.isArray(term.f) || typeof term.t !== 'number') return undefined;
    // counts are stored capped at 63 (see buildSnapshot): anything else (a string, 1e308) is not ours
    if (term.n !== undefined && (!Array.isArray(term.n) || term.n.length !== term.f.length || !term.n.every(isStoredCount))) return undefined;
    if (!term.f.every((i) => Number.isInteger(i) && i >= 0 && i < n)) return undefined;
  }
  return s as Snapshot;
}

function isStoredCount(n: unknown): boolean {
  return Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 63;
}

/** Drops the least recently used terms until the postings fit `MAX_POSTINGS`. */
export function boundSnapshot(snapshot: Snapshot, maxPostings = MAX_POSTINGS): Snapshot {
  let total = Object.values(snapshot.terms).reduce((sum, t) => sum + t.f.length, 0);
  if (total <= maxPostings) return snapshot;
  const terms = { ...snapshot.terms };
  const oldestFirst = Object.keys(terms).sort((a, b) => terms[a]!.t - terms[b]!.t || (a < b ? -1 : 1));
  for (const key of oldestFirst) {
    if (total <= maxPostings) break;
    total -= terms[key]!.f.length;
    delete terms[key];
  }
  return { ...snapshot, terms };
}
