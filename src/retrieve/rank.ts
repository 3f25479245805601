/**
 * Merges the evidence of one dispatch per file (content, path, mention, symbol), computes the
 * repository statistics, and keeps the best `maxCandidates` by a simple evidence order. The
 * real ranking is the evaluator's; this only decides what it gets to see.
 */
import { isUsageError } from '../core/errors.js';
import { pathIndexOf } from '../core/files.js';
import { tokenize } from '../core/text.js';
import type { Candidate, CandidateSource, DispatchResult, Query, SearchStats } from '../core/types.js';
import type { FileList } from './list.js';
import { createPathMatcher } from './match.js';
import type { FileTally } from './scan.js';
import { own } from '../core/records.js';

export interface RankInput {
  query: Query;
  list: FileList;
  evidence: ReadonlyMap<string, FileTally>;
  maxCandidates: number;
  /** Keywords a scan left out as too common to count, with the number of files estimated to hold each. */
  leftOut?: Readonly<Record<string, number>>;
}

/** Derived once per listing: a run ranks many dispatches over the same files. */
const listed = new WeakMap<FileList, { paths: Set<string>; tokens: string[][] }>();

function derivedOf(list: FileList): { paths: Set<string>; tokens: string[][] } {
  let derived = listed.get(list);
  if (!derived) {
    // Directory names repeat across thousands of paths: each segment is cut into terms once.
    const segments = new Map<string, string[]>();
    const tokensOf = (segment: string): string[] => {
      let tokens = segments.get(segment);
      if (!tokens) segments.set(segment, (tokens = tokenize(segment)));
      return tokens;
    };
    derived = { paths: new Set(list.files), tokens: list.files.map((path) => path.split('/').flatMap(tokensOf)) };
    listed.set(list, derived);
  }
  return derived;
}

const SOURCE_ORDER: readonly CandidateSource[] = ['content', 'path', 'mention', 'symbol', 'import', 'neighbour', 'commit'];
/** BM25's k1: how fast repeated occurrences stop adding evidence. */
const SATURATION = 1.2;

/**
 * Candidates without their evidence lines (`hits`) and with size 0: the dispatch reads both
 * for the candidates kept, not for every file that matched. Every file with evidence is
 * ordered, but only the kept ones become candidates.
 */
export function rankCandidates({ query, list, evidence, maxCandidates, leftOut = {} }: RankInput): DispatchResult {
  const { paths } = derivedOf(list);
  const stats = computeStats(query, list, evidence, paths);
  Object.assign(stats.docFreq, leftOut);
  const excluded = createPathMatcher(query.excludes, { matchParents: true });
  const entries = new Map<string, Entry>();
  const entryOf = (path: string): Entry => {
    let entry = entries.get(path);
    if (!entry) entries.set(path, (entry = { path, pathHit: false, mentions: [] }));
    return entry;
  };
  // only what the listing kept counts, so the content view never reaches past the filters
  for (const [path, found] of evidence) if (paths.has(path)) entryOf(path).tally = found;
  for (const path of findPathHits(query, list)) entryOf(path).pathHit = true;
  for (const [path, mention] of findMentions(query.paths, list)) {
    const entry = entryOf(path);
    if (!entry.mentions.includes(mention)) entry.mentions.push(mention);
  }
  const kept = orderByEvidence([...entries.values()].filter((e) => !excluded(e.path)), query, stats, maxCandidates).slice(0, maxCandidates);
  return { candidates: kept.map((e) => toCandidate(e, query)), stats };
}

/** What a dispatch found of one file, before it is kept or not. */
interface Entry {
  path: string;
  tally?: FileTally;
  pathHit: boolean;
  mentions: string[];
}

function toCandidate(entry: Entry, query: Query): Candidate {
  const found = entry.tally;
  const termFreq = found ? { ...found.termFreq } : {};
  const literals = found ? query.literals.filter((l) => found.literals.has(l)) : [];
  const symbols = found ? query.symbols.filter((s) => found.symbols.has(s)) : [];
  const sources = new Set<CandidateSource>();
  if (Object.keys(termFreq).length > 0 || (found?.literals.size ?? 0) > 0) sources.add('content');
  if (entry.pathHit) sources.add('path');
  if (entry.mentions.length > 0) sources.add('mention');
  if ((found?.symbols.size ?? 0) > 0) sources.add('symbol');
  return { path: entry.path, size: 0, termFreq, literals, symbols, mentions: entry.mentions, hits: [], sources: SOURCE_ORDER.filter((s) => sources.has(s)) };
}

function computeStats(query: Query, list: FileList, evidence: ReadonlyMap<string, FileTally>, listed: ReadonlySet<string>): SearchStats {
  const docFreq: Record<string, number> = {};
  for (const keyword of query.keywords) docFreq[keyword] = 0;
  for (const [path, found] of evidence) {
    if (!listed.has(path)) continue;
    for (const [keyword, tf] of Object.entries(found.termFreq)) if (tf > 0) docFreq[keyword] = (own(docFreq, keyword) ?? 0) + 1;
  }
  return { totalFiles: list.files.length, avgSize: list.avgSize, docFreq, skipped: { ...list.skipped } };
}

/** Files whose path holds a query keyword (`src/auth/verify.ts` for `verify`) or matches a query glob. */
function findPathHits(query: Query, list: FileList): string[] {
  const keywords = new Set(query.keywords);
  if (keywords.size === 0 && query.patterns.length === 0) return [];
  // A model's globs, checked (`isSafeGlob`): ones that still match too slowly are dropped, not the run.
  let matchesPattern: ((path: string) => boolean) | undefined = createPathMatcher(query.patterns, { nocase: true });
  const matches = (path: string): boolean => {
    try {
      return matchesPattern?.(path) ?? false;
    } catch (error) {
      if (!isUsageError(error)) throw error;
      matchesPattern = undefined;
      return false;
    }
  };
  const { tokens } = derivedOf(list);
  return list.files.filter((path, i) => matches(path) || tokens[i]!.some((t) => keywords.has(t)));
}

/** For each mention, the files it names best (as written, or as the tail of a foreign absolute path): only the longest match wins. */
function findMentions(mentions: readonly string[], list: FileList): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (mentions.length === 0) return out;
  const index = pathIndexOf(list.files);
  for (const mention of new Set(mentions)) {
    for (const path of index.lookup(mention, { foreign: true })) out.push([path, mention]);
  }
  return out;
}

/** Mentions first, then literals and symbols; then Σ weight·idf·saturated tf; ties by path. */
function orderByEvidence(entries: Entry[], query: Query, stats: SearchStats, maxCandidates: number): Entry[] {
  const N = stats.totalFiles;
  const idfs = new Map<string, number>();
  const idf = (keyword: string): number => {
    let value = idfs.get(keyword);
    if (value === undefined) {
      const df = own(stats.docFreq, keyword) ?? 0;
      idfs.set(keyword, (value = Math.log(1 + (N - df + 0.5) / (df + 0.5))));
    }
    return value;
  };
  const scoreOf = (e: Entry): number =>
    // a keyword the planner gave no weight still counts, as a plain term
    Object.entries(e.tally?.termFreq ?? {}).reduce((sum, [k, tf]) => sum + (own(query.weights, k) ?? 1) * idf(k) * (tf / (tf + SATURATION)), 0);
  // A file the task names by its path first, whatever else matches: the cut must not drop it
  // behind 150 files calling a symbol it defines. Then literal and symbol matches, then the rest.
  // A literal or symbol held by more files than a third of the cut is a common word of the
  // repository (`tRPC` in every page of tRPC's docs): it would fill the cut on its own.
  const namesOf = (e: Entry): string[] => [...(e.tally?.literals ?? []), ...(e.tally?.symbols ?? [])];
  const holders = new Map<string, number>();
  for (const e of entries) for (const s of namesOf(e)) holders.set(s, (holders.get(s) ?? 0) + 1);
  const rare = (s: string): boolean => (holders.get(s) ?? 0) <= Math.max(1, Math.floor(maxCandidates / 3));
  const strongOf = (e: Entry): number => (e.mentions.length > 0 ? 0 : namesOf(e).some(rare) ? 1 : 2);
  const ranked = entries.map((e) => ({ e, strong: strongOf(e), score: scoreOf(e) }));
  ranked.sort((a, b) => a.strong - b.strong || b.score - a.score || (a.e.path < b.e.path ? -1 : a.e.path > b.e.path ? 1 : 0));
  return ranked.map((r) => r.e);
}
