/**
 * Merges the evidence of one dispatch per file (content, path, mention, symbol), computes the
 * repository statistics, and keeps the best `maxCandidates` by a simple evidence order. The
 * real ranking is the evaluator's; this only decides what it gets to see.
 */
import { pathIndexOf } from '../core/files.js';
import { tokenize } from '../core/text.js';
import type { Candidate, CandidateSource, DispatchResult, Query, SearchStats } from '../core/types.js';
import { selectHits, type FileEvidence } from './collect.js';
import type { FileList, ListedFile } from './glob.js';
import { createPathMatcher } from './match.js';
import { own } from '../core/records.js';

export interface RankInput {
  query: Query;
  list: FileList;
  evidence: ReadonlyMap<string, FileEvidence>;
  maxCandidates: number;
}

const SOURCE_ORDER: readonly CandidateSource[] = ['content', 'path', 'mention', 'symbol', 'import', 'neighbour'];
/** BM25's k1: how fast repeated occurrences stop adding evidence. */
const SATURATION = 1.2;

export function rankCandidates({ query, list, evidence, maxCandidates }: RankInput): DispatchResult {
  const listed = new Map(list.files.map((f) => [f.path, f]));
  // only what the listing kept counts, so the content view never reaches past the filters
  const content = new Map([...evidence].filter(([path]) => listed.has(path)));
  const stats = computeStats(query, list, content);
  const excluded = createPathMatcher(query.excludes, { matchParents: true });
  const drafts = new Map<string, Candidate>();
  const draftOf = (file: ListedFile): Candidate => {
    let draft = drafts.get(file.path);
    if (!draft) {
      draft = { path: file.path, size: file.size, termFreq: {}, literals: [], symbols: [], mentions: [], hits: [], sources: [] };
      drafts.set(file.path, draft);
    }
    return draft;
  };
  for (const [path, found] of content) {
    const draft = draftOf(listed.get(path) as ListedFile);
    draft.termFreq = { ...found.termFreq };
    draft.literals = query.literals.filter((l) => found.literals.has(l));
    draft.symbols = query.symbols.filter((s) => found.symbols.has(s));
    draft.hits = selectHits(found.hits);
    if (Object.keys(found.termFreq).length > 0 || found.literals.size > 0) draft.sources.push('content');
    if (found.symbols.size > 0) draft.sources.push('symbol');
  }
  for (const file of findPathHits(query, list.files)) draftOf(file).sources.push('path');
  for (const [file, mention] of findMentions(query.paths, list.files)) {
    const draft = draftOf(file);
    draft.mentions.push(mention);
    if (!draft.sources.includes('mention')) draft.sources.push('mention');
  }
  const candidates = [...drafts.values()].filter((c) => !excluded(c.path));
  for (const c of candidates) c.sources = SOURCE_ORDER.filter((s) => c.sources.includes(s));
  return { candidates: orderByEvidence(candidates, query, stats).slice(0, maxCandidates), stats };
}

function computeStats(query: Query, list: FileList, content: ReadonlyMap<string, FileEvidence>): SearchStats {
  const totalFiles = list.files.length;
  const avgSize = totalFiles === 0 ? 0 : list.files.reduce((sum, f) => sum + f.size, 0) / totalFiles;
  const docFreq: Record<string, number> = {};
  for (const keyword of query.keywords) docFreq[keyword] = 0;
  for (const found of content.values()) {
    for (const [keyword, tf] of Object.entries(found.termFreq)) if (tf > 0) docFreq[keyword] = (own(docFreq, keyword) ?? 0) + 1;
  }
  return { totalFiles, avgSize, docFreq, skipped: { ...list.skipped } };
}

/** Files whose path holds a query keyword (`src/auth/verify.ts` for `verify`) or matches a query glob. */
function findPathHits(query: Query, files: readonly ListedFile[]): ListedFile[] {
  const keywords = new Set(query.keywords);
  const matchesPattern = createPathMatcher(query.patterns, { nocase: true });
  if (keywords.size === 0 && query.patterns.length === 0) return [];
  return files.filter((f) => matchesPattern(f.path) || tokenize(f.path).some((t) => keywords.has(t)));
}

/** For each mention, the files it names best (as written, or as the tail of a foreign absolute path): only the longest match wins. */
function findMentions(mentions: readonly string[], files: readonly ListedFile[]): Array<[ListedFile, string]> {
  const out: Array<[ListedFile, string]> = [];
  if (mentions.length === 0) return out;
  const byPath = new Map(files.map((f) => [f.path, f]));
  const index = pathIndexOf([...byPath.keys()]);
  for (const mention of new Set(mentions)) {
    for (const path of index.lookup(mention, { foreign: true })) out.push([byPath.get(path)!, mention]);
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
