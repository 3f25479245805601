/**
 * Merges the evidence of one dispatch per file (content, path, mention, symbol), computes the
 * repository statistics, and keeps the best `maxCandidates` by a simple evidence order. The
 * real ranking is the evaluator's; this only decides what it gets to see.
 */
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

const SOURCE_ORDER: readonly CandidateSource[] = ['content', 'path', 'mention', 'symbol', 'import', 'neighbour'];
/** BM25's k1: how fast repeated occurrences stop adding evidence. */
const SATURATION = 1.2;

/**
 * Candidates without their evidence lines (`hits`) and with size 0: the dispatch reads both
 * for the candidates kept, not for every file that matched.
 */
export function rankCandidates({ query, list, evidence, maxCandidates }: RankInput): DispatchResult {
  const { paths } = derivedOf(list);
  // only what the listing kept counts, so the content view never reaches past the filters
  const content = new Map([...evidence].filter(([path]) => paths.has(path)));
  const stats = computeStats(query, list, content);
  const excluded = createPathMatcher(query.excludes, { matchParents: true });
  const drafts = new Map<string, Candidate>();
  const draftOf = (path: string): Candidate => {
    let draft = drafts.get(path);
    if (!draft) {
      draft = { path, size: 0, termFreq: {}, literals: [], symbols: [], mentions: [], hits: [], sources: [] };
      drafts.set(path, draft);
    }
    return draft;
  };
  for (const [path, found] of content) {
    const draft = draftOf(path);
    draft.termFreq = { ...found.termFreq };
    draft.literals = query.literals.filter((l) => found.literals.has(l));
    draft.symbols = query.symbols.filter((s) => found.symbols.has(s));
    if (Object.keys(found.termFreq).length > 0 || found.literals.size > 0) draft.sources.push('content');
    if (found.symbols.size > 0) draft.sources.push('symbol');
  }
  for (const path of findPathHits(query, list)) draftOf(path).sources.push('path');
  for (const [path, mention] of findMentions(query.paths, list)) {
    const draft = draftOf(path);
    draft.mentions.push(mention);
    if (!draft.sources.includes('mention')) draft.sources.push('mention');
  }
  const candidates = [...drafts.values()].filter((c) => !excluded(c.path));
  for (const c of candidates) c.sources = SOURCE_ORDER.filter((s) => c.sources.includes(s));
  return { candidates: orderByEvidence(candidates, query, stats).slice(0, maxCandidates), stats };
}

function computeStats(query: Query, list: FileList, content: ReadonlyMap<string, FileTally>): SearchStats {
  const docFreq: Record<string, number> = {};
  for (const keyword of query.keywords) docFreq[keyword] = 0;
  for (const found of content.values()) {
    for (const [keyword, tf] of Object.entries(found.termFreq)) if (tf > 0) docFreq[keyword] = (own(docFreq, keyword) ?? 0) + 1;
  }
  return { totalFiles: list.files.length, avgSize: list.avgSize, docFreq, skipped: { ...list.skipped } };
}

/** Files whose path holds a query keyword (`src/auth/verify.ts` for `verify`) or matches a query glob. */
function findPathHits(query: Query, list: FileList): string[] {
  const keywords = new Set(query.keywords);
  if (keywords.size === 0 && query.patterns.length === 0) return [];
  const matchesPattern = createPathMatcher(query.patterns, { nocase: true });
  const { tokens } = derivedOf(list);
  return list.files.filter((path, i) => matchesPattern(path) || tokens[i]!.some((t) => keywords.has(t)));
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

/** Mentions, literals and symbols first; then Σ weight·idf·saturated tf; ties by path. */
function orderByEvidence(candidates: Candidate[], query: Query, stats: SearchStats): Candidate[] {
  const N = stats.totalFiles;
  const idf = (keyword: string): number => {
    const df = own(stats.docFreq, keyword) ?? 0;
    return Math.log(1 + (N - df + 0.5) / (df + 0.5));
  };
  const scoreOf = (c: Candidate): number =>
    // a keyword the planner gave no weight still counts, as a plain term
    Object.entries(c.termFreq).reduce((sum, [k, tf]) => sum + (own(query.weights, k) ?? 1) * idf(k) * (tf / (tf + SATURATION)), 0);
  const ranked = candidates.map((c) => ({ c, strong: c.mentions.length + c.literals.length + c.symbols.length > 0 ? 0 : 1, score: scoreOf(c) }));
  ranked.sort((a, b) => a.strong - b.strong || b.score - a.score || (a.c.path < b.c.path ? -1 : a.c.path > b.c.path ? 1 : 0));
  return ranked.map((r) => r.c);
}
