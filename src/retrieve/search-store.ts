/**
 * Keeps a searcher's term index between runs, in the cache's `search` blob (`snapshot.ts`). On
 * the first term the run needs, the previous index is read, the listed files are stated, and the
 * files changed since are re-scanned for every stored term in one pass over those files alone;
 * stored terms then cost no scan at all. At the end the index is saved with this run's terms.
 */
import type { Cache } from '../core/deps.js';
import type { Logger } from '../core/log.js';
import type { FileList } from './list.js';
import type { FileTally, ScanTerms } from './scan.js';
import { boundSnapshot, findChanged, MAX_CHANGED, parseSnapshot, SNAPSHOT_FORMAT, type FileStats, type Snapshot, type StoredTerm } from './snapshot.js';
import { keyOfKeyword, keyOfLiteral, keyOfSymbol, type Postings, type TermIndex, type TermKey } from './term-index.js';

const BLOB = 'search';

export interface SearchStoreOptions {
  cache: Cache;
  /** Everything that shapes a scan; an index of another key is not used. */
  key: string;
  listing: () => Promise<FileList>;
  /** The stat of every listed file, taken once (the searcher shares it). */
  stats: () => Promise<FileStats>;
  /** Scans the given files only. */
  scanFiles: (terms: ScanTerms, paths: string[], record: (path: string, tally: FileTally) => void) => Promise<void>;
  logger: Logger;
}

export interface SearchStore {
  /** Postings of the stored terms among `keys`, brought up to date. */
  restore(keys: TermKey[]): Promise<Map<TermKey, Postings>>;
  /**
   * Queues the index (this run's terms and the stored ones still valid) for the cache's next
   * flush, without the `unsaved` terms (a secret pasted into a task is not kept at rest).
   */
  save(index: TermIndex, unsaved?: readonly string[]): Promise<void>;
}

interface Prior {
  takenAt: number;
  /** Not awaited before a first scan when there is no index to check: they run alongside it. */
  list: Promise<FileList>;
  stats: Promise<FileStats>;
  /** Undefined when there was none, of another key, or too much changed. */
  snapshot?: Snapshot;
  listed: Set<string>;
  changed: Set<string>;
  /** Stored terms found again in the changed files. */
  repaired?: Promise<Map<TermKey, Postings>>;
}

type Usable = Prior & { snapshot: Snapshot };

/** Files re-scanned per rg run: their paths go on the command line. */
const PATHS_PER_RUN = 400;

export function createSearchStore(options: SearchStoreOptions): SearchStore {
  const { cache, key } = options;
  let prior: Promise<Prior> | undefined;
  let scannedHere = false;

  const load = async (): Promise<Prior> => {
    // taken before any stat or scan this run makes: a file modified after this is re-scanned next time
    const takenAt = Date.now();
    const snapshot = parseSnapshot(await cache.readBlob(BLOB), key);
    const list = options.listing();
    const stats = options.stats();
    stats.catch(() => undefined); // a failed listing is reported by the dispatch that needs it
    if (!snapshot) return { takenAt, list, stats, listed: new Set(), changed: new Set() };
    const files = (await list).files;
    const changed = findChanged(snapshot, files, await stats);
    if (changed.size > MAX_CHANGED) {
      options.logger.debug(`search index: ${changed.size} files changed, scanning anew`);
      return { takenAt, list, stats, listed: new Set(), changed };
    }
    options.logger.debug(`search index: ${Object.keys(snapshot.terms).length} terms stored, ${changed.size} files changed`);
    return { takenAt, list, stats, snapshot, listed: new Set(files), changed };
  };

  const repair = (p: Usable): Promise<Map<TermKey, Postings>> => {
    const keys = Object.keys(p.snapshot.terms);
    const found = new Map<TermKey, Postings>(keys.map((k) => [k, new Map()]));
    if (p.changed.size === 0 || keys.length === 0) return Promise.resolve(found);
    const terms = termsOfKeys(keys);
    const paths = [...p.changed];
    const record = (path: string, tally: FileTally): void => {
      for (const [keyword, tf] of Object.entries(tally.termFreq)) found.get(keyOfKeyword(keyword))?.set(path, tf);
      for (const literal of tally.literals) found.get(keyOfLiteral(literal))?.set(path, 1);
      for (const symbol of tally.symbols) found.get(keyOfSymbol(symbol))?.set(path, 1);
    };
    return (async () => {
      for (let i = 0; i < paths.length; i += PATHS_PER_RUN) await options.scanFiles(terms, paths.slice(i, i + PATHS_PER_RUN), record);
      return found;
    })();
  };

  /** A stored term's postings on today's files: unchanged files from the snapshot, changed ones from the repair. */
  const postingsOf = (p: Usable, key: TermKey, repaired: Map<TermKey, Postings>): Postings => {
    const stored = p.snapshot.terms[key]!;
    const out: Postings = new Map();
    stored.f.forEach((index, i) => {
      const path = p.snapshot.files[index]!;
      if (p.listed.has(path) && !p.changed.has(path)) out.set(path, stored.n?.[i] ?? 1);
    });
    for (const [path, n] of repaired.get(key) ?? []) out.set(path, n);
    return out;
  };

  const priorOf = (): Promise<Prior> => (prior ??= load());

  return {
    async restore(keys) {
      const p = await priorOf();
      const out = new Map<TermKey, Postings>();
      const { snapshot } = p;
      if (!snapshot) {
        scannedHere = true;
        return out;
      }
      const stored = keys.filter((k) => snapshot.terms[k] !== undefined);
      if (stored.length < keys.length) scannedHere = true;
      if (stored.length === 0) return out;
      const withSnapshot = { ...p, snapshot };
      const repaired = await (p.repaired ??= repair(withSnapshot));
      for (const k of stored) out.set(k, postingsOf(withSnapshot, k, repaired));
      return out;
    },

    async save(index, unsaved = []) {
      const p = await priorOf();
      // nothing new and nothing changed: the stored index is still exact, no need to rewrite it
      if (!scannedHere && p.changed.size === 0) return;
      const [list, stats] = await Promise.all([p.list, p.stats]);
      const repaired = p.snapshot && p.repaired ? await p.repaired : undefined;
      const secret = new Set(unsaved.flatMap((t) => [keyOfKeyword(t), keyOfLiteral(t), keyOfSymbol(t)]));
      cache.writeBlob(BLOB, { toJSON: () => buildSnapshot(key, { ...p, files: list.files, stats }, index, repaired, secret) });
    },
  };
}

function buildSnapshot(key: string, p: Omit<Prior, 'list' | 'stats'> & { files: string[]; stats: FileStats }, index: TermIndex, repaired: Map<TermKey, Postings> | undefined, secret: ReadonlySet<TermKey>): Snapshot {
  const { files } = p;
  const position = new Map(files.map((path, i) => [path, i]));
  const now = Date.now();
  const terms: Record<TermKey, StoredTerm> = {};
  // (file, count) packed in one number (counts are capped at 50, so 6 bits hold them), sorted by file
  const store = (termKey: TermKey, postings: Iterable<[string, number]>, t: number): void => {
    const packed: number[] = [];
    for (const [path, n] of postings) {
      const at = position.get(path);
      if (at !== undefined) packed.push(at * 64 + Math.min(63, n));
    }
    const sorted = Float64Array.from(packed).sort();
    const f = new Array<number>(sorted.length);
    const counts = new Array<number>(sorted.length);
    sorted.forEach((v, i) => {
      f[i] = Math.floor(v / 64);
      counts[i] = v % 64;
    });
    const term: StoredTerm = { t, f };
    if (termKey.startsWith('k:')) term.n = counts;
    terms[termKey] = term;
  };
  for (const [termKey, postings] of index.entries()) if (!secret.has(termKey)) store(termKey, postings, now);
  // Stored terms this run did not use stay, when the changed files could be re-scanned for them.
  const { snapshot } = p;
  if (snapshot && (p.changed.size === 0 || repaired)) {
    for (const [termKey, stored] of Object.entries(snapshot.terms)) {
      if (terms[termKey]) continue;
      const postings: Array<[string, number]> = [];
      stored.f.forEach((at, i) => {
        const path = snapshot.files[at]!;
        if (!p.changed.has(path) && p.listed.has(path)) postings.push([path, stored.n?.[i] ?? 1]);
      });
      for (const entry of repaired?.get(termKey) ?? []) postings.push(entry);
      store(termKey, postings, stored.t);
    }
  }
  // the stats may have been taken before this run's first look at the index (another caller asked first)
  return boundSnapshot({ v: SNAPSHOT_FORMAT, key, takenAt: Math.min(p.takenAt, p.stats.takenAt), files, mtimes: [...p.stats.mtimes], sizes: [...p.stats.sizes], ctimes: [...p.stats.ctimes], inos: [...p.stats.inos], terms });
}

function termsOfKeys(keys: readonly TermKey[]): ScanTerms {
  const terms: ScanTerms = { keywords: [], literals: [], symbols: [] };
  for (const key of keys) {
    const value = key.slice(2);
    if (key.startsWith('k:')) terms.keywords.push(value);
    else if (key.startsWith('l:')) terms.literals.push(value);
    else if (key.startsWith('s:')) terms.symbols.push(value);
  }
  return terms;
}
