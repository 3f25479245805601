/**
 * The interfaces stages rely on. Real implementations are built by `createDefaultDeps`
 * (orchestrator); tests replace any of them.
 */
import type { Logger } from './log.js';
import type { Candidate, DispatchResult, FileFacts, Query, Score, SearchStats, Usage } from './types.js';

/** Where and how to search; paths in `scope`, `include`, `exclude` are root-relative. */
export interface SearchScope {
  /** Absolute root. */
  root: string;
  scope: string[];
  include: string[];
  exclude: string[];
  maxFileSize: number;
  concurrency: number;
}

export interface SearchRequest extends SearchScope {
  query: Query;
  /** Candidates kept, best evidence first (ties by path). */
  maxCandidates: number;
}

/** The retrieval subagent: glob and content searches over a root. */
export interface Searcher {
  /**
   * Runs one dispatch: file-name hits (`patterns`, keywords in paths), path mentions (`paths`),
   * content hits (`keywords`, `literals`, `symbols`), merged per file. Honors .gitignore and the
   * built-in skips (binary, vendored, generated, minified, lock, oversized, secret files).
   * No match is an empty result, not an error. Throws `SearchError` when the search itself fails.
   */
  search(request: SearchRequest, signal?: AbortSignal): Promise<DispatchResult>;
  /** Every searchable file (root-relative, sorted), after the same ignores and skips. */
  listFiles(scope: SearchScope, signal?: AbortSignal): Promise<string[]>;
}

/** Reads and analyses files; facts are cached by content hash. */
export interface FactsReader {
  /**
   * Facts for each readable file among `paths` (root-relative). Files that vanished, cannot be
   * read, or leave the root through a symlink are left out of the map, not thrown.
   */
  read(root: string, paths: string[], signal?: AbortSignal): Promise<Map<string, FileFacts>>;
  /** The file's text (UTF-8, invalid bytes replaced), or undefined when it cannot be read. */
  readText(root: string, path: string): Promise<string | undefined>;
}

export interface EvalInput {
  /** The task as given. */
  task: string;
  /** The planned query: what the task itself asks for (the evaluator scores against this). */
  plan: Query;
  /** The query of this cycle (plan plus refinements). */
  query: Query;
  /** Everything found so far, merged across cycles. */
  candidates: Candidate[];
  /** Facts of the candidates worth a closer look (not necessarily all). */
  facts: Map<string, FileFacts>;
  /** Repository-wide numbers for term weighting. */
  stats: SearchStats;
  /** Every searchable file, for resolving imports and mentions. */
  files: readonly string[];
}

export interface EvalOutput {
  /** One score per candidate, in any order. */
  scores: Score[];
  /** Model usage of this call (zero for offline). */
  usage: Usage;
}

/**
 * Scores candidates 0–1 with a reason and the gaps each file points at.
 * Contract: never drops a candidate silently (every input path gets a score), never throws for
 * a single bad file; a provider failure throws `ProviderError` so the caller can fall back.
 */
export interface Evaluator {
  readonly id: string;
  /** Model name, or `offline`. Part of the score cache key. */
  readonly model: string;
  /**
   * True when a file's score depends only on the task and that file (an LLM judging each file),
   * so scores can be cached per (query, content hash). The offline evaluator scores files
   * against each other (calibrated to the best), so its scores are not cached: recomputing them
   * costs less than hashing every candidate.
   */
  readonly independent?: boolean;
  /** Version of the prompt (or scorer) behind the scores; part of the score cache key. */
  readonly version?: string | number;
  evaluate(input: EvalInput, signal?: AbortSignal): Promise<EvalOutput>;
}

/** The two cache layers. Reads are synchronous (the store is loaded once); writes are batched. */
export interface Cache {
  getFacts(key: string): FileFacts | undefined;
  setFacts(key: string, facts: FileFacts): void;
  getScore(key: string): Score | undefined;
  setScore(key: string, score: Score): void;
  /** Writes pending entries; never throws (a failed write loses cache entries, never results). */
  flush(): Promise<void>;
}

/** Counts tokens with a real tokenizer. */
export interface Tokenizer {
  count(text: string): number;
}

export interface Clock {
  now(): number;
}

export interface Deps {
  searcher: Searcher;
  facts: FactsReader;
  evaluator: Evaluator;
  cache: Cache;
  tokenizer: Tokenizer;
  clock: Clock;
  logger: Logger;
}
