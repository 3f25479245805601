/**
 * The nouns of ctxloop. Stages meet here: none imports another stage.
 * Result-contract fields (see DESIGN.md) are camelCase and never renamed once shipped.
 */
import type { ProviderErrorCode } from './errors.js';

/** One search request: what a single dispatch looks for. All strings are plain data, never regexes. */
export interface Query {
  /**
   * Normalized search terms (lowercase, light-stemmed identifier parts and whole identifiers,
   * as produced by `termsOf` in `core/text.ts`). Matched against the same tokenization of file lines.
   */
  keywords: string[];
  /** Importance of each keyword (1 = a code identifier named by the task, ~0.3 = a prose word). */
  weights: Record<string, number>;
  /** Exact strings from the task (quoted error messages, literals) searched verbatim, case-insensitive. */
  literals: string[];
  /** Symbol names whose definitions are sought (as written, e.g. `sendVerificationEmail`). */
  symbols: string[];
  /** Path mentions (file paths, stack-trace files, dotted module paths turned into paths) to match by suffix. */
  paths: string[];
  /** Glob patterns matched against root-relative paths (file-name hits). */
  patterns: string[];
  /** Globs excluded from this dispatch (root-relative). */
  excludes: string[];
  /** Directories (root-relative) to favour. */
  focusAreas: string[];
}

/** How a candidate came to be found. */
export type CandidateSource = 'content' | 'path' | 'mention' | 'symbol' | 'import' | 'neighbour';

/** A matched line of a file. */
export interface Hit {
  /** 1-based line number. */
  line: number;
  /** The line, trimmed of trailing whitespace and cut to at most 300 characters. */
  text: string;
  /** Keywords (from `Query.keywords`), literals and symbols found on this line. */
  terms: string[];
}

/** A file found by dispatch, with the evidence that found it. */
export interface Candidate {
  /** Root-relative POSIX path. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** Keyword → occurrences in the file (identifier-aware, capped per file). */
  termFreq: Record<string, number>;
  /** Query literals found verbatim (case-insensitive) in the file. */
  literals: string[];
  /** Query symbols found in the file (any occurrence, as whole identifiers). */
  symbols: string[];
  /** Query paths this file's path matched (by suffix). */
  mentions: string[];
  /** Evidence lines, in line order, capped per file. */
  hits: Hit[];
  /** How it was found. */
  sources: CandidateSource[];
}

/** Repository-wide numbers from a dispatch, for term weighting. */
export interface SearchStats {
  /** Files searchable under the root after filters. */
  totalFiles: number;
  /** Mean size in bytes of searchable files. */
  avgSize: number;
  /** Keyword → number of files containing it. */
  docFreq: Record<string, number>;
  /** Files passed over, by reason (`binary`, `secret`, `generated`, `oversized`, `vendored`, `ignored`). */
  skipped: Record<string, number>;
}

export interface DispatchResult {
  candidates: Candidate[];
  stats: SearchStats;
}

/** A definition found in a file. Lines are 1-based and inclusive. */
export interface SymbolDef {
  name: string;
  kind: 'function' | 'method' | 'class' | 'interface' | 'type' | 'enum' | 'struct' | 'trait' | 'variable' | 'constant' | 'macro' | 'module';
  start: number;
  end: number;
  /** Enclosing definition's name, for methods and nested definitions. */
  parent?: string;
  /** Enclosing definitions' names and this one, joined by `.` (`::` in Rust and C++): `UserService.getUser`. */
  qualified?: string;
}

/** What is known of a file's structure, cached by content hash. */
export interface FileFacts {
  path: string;
  /** sha1 of the content. */
  hash: string;
  /** Language id (`typescript`, `python`, `go`, …) or `text`. */
  language: string;
  lines: number;
  defs: SymbolDef[];
  /** Import specifiers as written (`./auth/verify`, `os.path`, `github.com/x/y`, `crate::foo`). */
  imports: string[];
  /** Names called in the file (`foo(`, `obj.foo(`): identifiers only, deduplicated. */
  calls: string[];
  /** Who read the structure: a tree-sitter grammar, or the pattern extractor (other languages, failed parses). */
  parser?: 'tree-sitter' | 'patterns';
}

/** The evaluator's verdict on one candidate. */
export interface Score {
  path: string;
  /** 0–1; ≥ 0.7 means "needed". */
  relevance: number;
  /** One line: why. */
  reason: string;
  /** What this file points at that is still missing (symbols it calls, imports not followed). */
  missing: string[];
  /** Lines the evaluator found most telling (1-based), for regions. */
  evidence: number[];
}

/** A named gap: something the task needs that no retrieved file provides yet. */
export interface Gap {
  kind: 'symbol' | 'path' | 'import' | 'literal';
  /** The symbol, path, import specifier or literal. */
  target: string;
  /** The file whose evidence raised it, if any. */
  from?: string;
  /** Human text, e.g. `where is sendVerificationEmail defined?` */
  question: string;
}

/** A region of a packed file. Lines are 1-based and inclusive. */
export interface Region {
  start: number;
  end: number;
  symbol?: string;
  content?: string;
}

export interface FileResult {
  path: string;
  score: number;
  reason: string;
  regions: Region[];
}

/**
 * What the budget left out of the pack: a region (lines and symbol), or a whole file (no lines),
 * with the tokens it would have taken as the pack shows it.
 */
export interface CutRegion {
  path: string;
  start?: number;
  end?: number;
  symbol?: string;
  tokens: number;
}

export interface CandidateResult {
  path: string;
  score: number;
  reason: string;
}

export interface CycleTrace {
  query: Partial<Query>;
  candidates: number;
  kept: number;
  ms: number;
  /** Gaps this cycle closed. */
  closed?: string[];
  /** Files retrieval subagents found for open gaps (with a model only). */
  scouted?: string[];
}

export interface Usage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheHits: number;
}

/** snake_case reasons: the code of the provider error that caused the fallback. */
export type FallbackReason = ProviderErrorCode;

/** The result contract of DESIGN.md, exactly what `--json` prints. */
export interface RetrieveResult {
  task: string;
  root: string;
  provider: string;
  files: FileResult[];
  candidates: CandidateResult[];
  gaps: string[];
  cycles: CycleTrace[];
  usage: Usage;
  tokens: number;
  /** Regions and files that scored ≥ threshold but did not fit the budget, best first. */
  cut?: CutRegion[];
  fallback?: { reason: FallbackReason; message?: string };
}

/** Reported through `onProgress` as the loop runs. */
export type ProgressEvent =
  | { type: 'plan'; query: Query }
  | { type: 'dispatch'; cycle: number; candidates: number; ms: number }
  | { type: 'evaluate'; cycle: number; scored: number; kept: number; ms: number }
  | { type: 'refine'; cycle: number; gaps: string[]; stop: boolean; why: string }
  | { type: 'pack'; files: number; tokens: number };
