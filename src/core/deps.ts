/**
 * The interfaces stages rely on. Real implementations are built by `createDefaultDeps`
 * (orchestrator); tests replace any of them.
 */
import type { Logger } from './log.js';
import type { Candidate, DispatchResult, EgressPart, FileFacts, Query, RetrieveResult, Score, SearchStats, Usage } from './types.js';

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
  /** Terms of the query searched but never kept between runs (they come from a secret in the task). */
  unsaved?: readonly string[];
  /**
   * Keywords counted only under `paths` (root-relative directories or files), not in the whole
   * scope: a later cycle's names borrowed from the strongest files, looked for where those files
   * are. Their counts hold for this run only: they are never kept between runs.
   */
  near?: { keywords: readonly string[]; paths: readonly string[] };
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
  /**
   * The listing with every file's modification time and size (NaN for one gone since it was
   * listed), taken once per searcher and scope and shared with the search index kept between runs.
   */
  statFiles?(scope: SearchScope, signal?: AbortSignal): Promise<ListedStats>;
}

/** `Searcher.statFiles`: parallel to `files`. */
export interface ListedStats {
  files: string[];
  mtimes: Float64Array;
  sizes: Float64Array;
  /** Inode change times (identity only: not for settling). */
  ctimes: Float64Array;
  /** Inode numbers (identity only). */
  inos: Float64Array;
}

/** Reads and analyses files; facts are cached by content hash. */
export interface FactsReader {
  /**
   * Facts for each readable file among `paths` (root-relative). Files that vanished, cannot be
   * read, or leave the root through a symlink are left out of the map, not thrown. `exact`: from
   * syntax trees where a grammar is bundled (true) or by patterns (false); by default, as the
   * reader was made.
   */
  read(root: string, paths: string[], signal?: AbortSignal, exact?: boolean): Promise<Map<string, FileFacts>>;
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
  /**
   * Offline scores of these candidates, when the orchestrator ranked them first. A model
   * evaluator stands them in for a batch it could not score, and borrows their evidence lines.
   */
  prior?: ReadonlyMap<string, Score>;
  /** The previous cycle's verdicts (none in the first cycle): the files the loop already found strong. */
  previous?: readonly Score[];
}

export interface EvalOutput {
  /** One score per candidate, in any order. */
  scores: Score[];
  /** Model usage of this call (zero for offline). */
  usage: Usage;
  /**
   * Paths scored by a stand-in (offline scores after a model reply failed twice): correct for
   * this run but not the evaluator's own verdict, so they are never cached under its key.
   */
  standIns?: string[];
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

/** What a model is asked for: one user turn, answered as JSON matching `schema`. */
export interface ModelRequest {
  /** The calling role (`evaluate`, `plan`, `scout`), for messages. */
  role: string;
  /** The rendered prompt. The model wrapper redacts secret-looking values before sending it. */
  prompt: string;
  /** A second try after a bad reply: the reply and what was wrong with it. */
  repair?: { reply: string; problem: string };
  /** The reply's JSON schema: an Anthropic tool's input schema, an OpenAI `json_schema` format. */
  schema: { name: string; description: string; json: Record<string, unknown> };
  /** Output token limit. */
  maxTokens: number;
  /** The file content this prompt carries, for the egress manifest (recorded when it is sent). */
  egress?: EgressPart[];
}

export interface ModelReply {
  /** The JSON text of the reply (a tool call's input, or the message content as written). */
  text: string;
  /** From the API's own usage fields. */
  inputTokens: number;
  outputTokens: number;
}

/**
 * One chat model behind one provider SDK (`evaluate/anthropic.ts`, `evaluate/openai.ts`).
 * Contract: retries (429 with `retry-after`, 5xx, network) happen inside the SDK; what is left
 * throws `ProviderError` with a code from the shared vocabulary; an abort throws `aborted`.
 */
export interface ChatModel {
  /** `anthropic` or `openai`. */
  readonly provider: string;
  readonly model: string;
  complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply>;
  /** HTTP requests made so far, the SDK's own retries included (when the client can count them). */
  attempts?(): number;
}

/** A memoized result: valid while the repository's state fingerprint is still `state`. */
export interface MemoEntry {
  state: string;
  result: RetrieveResult;
}

/** What `stat` said of a file when its content hash was taken: the freshness check before hashing. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  /** Inode change time: a file renamed over this path, or written and given its old mtime back, has a new one. */
  ctimeMs: number;
  /** Inode number: a file brought to this path by renaming a directory above it keeps its own times, not this. */
  ino: number;
  /** sha1 of the content, hex. */
  hash: string;
}

/**
 * The cache layers. Reads are synchronous (the store is loaded once); writes are batched and
 * happen on `flush`. Blobs (the search index) live in files of their own, read on first ask.
 */
export interface Cache {
  getFacts(key: string): FileFacts | undefined;
  setFacts(key: string, facts: FileFacts): void;
  getScore(key: string): Score | undefined;
  setScore(key: string, score: Score): void;
  /** A validated model reply other than a score (planner, refiner, subagent), by `replyKey`; the caller validates it again. */
  getReply(key: string): unknown;
  setReply(key: string, value: unknown): void;
  /** By root-relative path. */
  getStamp(path: string): FileStamp | undefined;
  setStamp(path: string, stamp: FileStamp): void;
  /** A whole run's result, by `resultKey` (see `orchestrator/result-memo.ts`); fewer are kept than of the other layers. */
  getResult(key: string): MemoEntry | undefined;
  setResult(key: string, entry: MemoEntry): void;
  /** A large value kept apart (one file per name), or undefined when absent or unusable. Never throws. */
  readBlob(name: string): Promise<unknown>;
  /** Replaces a blob; written on the next `flush`. */
  writeBlob(name: string, value: unknown): void;
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
  /** Reads which files a commit the task names changed; none: such commits are not looked up. */
  history?: HistoryReader;
}

/** How lately and how often each file changed in a repository's recent history. */
export interface FileHistory {
  /** Commits read, newest first (at most the depth asked for). */
  commits: number;
  /** Root-relative POSIX path → `latest`: the newest commit that changed it (0 = HEAD), `changes`: how many of the commits did. */
  files: Map<string, { latest: number; changes: number }>;
}

/** Reads version-control history. */
export interface HistoryReader {
  /**
   * The last `depth` commits that changed files under `root`. Undefined when there is no history
   * to read (not a repository, git missing, git failed): never thrown, since history is a hint.
   */
  read(root: string, depth: number, signal?: AbortSignal): Promise<FileHistory | undefined>;
  /**
   * The files under `root` one commit changed (root-relative POSIX paths), the commit given by a
   * hash or its prefix. Undefined when it names no commit there (or git fails): never thrown.
   */
  changedBy(root: string, commit: string, signal?: AbortSignal): Promise<string[] | undefined>;
}
