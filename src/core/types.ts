/**
 * The nouns of ctxloop. Stages meet here: none imports another stage.
 * Result-contract fields (see DESIGN.md) are camelCase and never renamed once shipped.
 */
import type { ProviderErrorCode } from './errors.js';

/** One search request: what a single dispatch looks for. All strings are plain data, never regexes. */
export interface Query {
  /**
   * Normalized search terms (lowercase, light-stemmed identifier parts and whole identifiers,
   * as produced by `tokenize` in `core/text.ts`), matched against the same tokenization of file
   * lines; and pair terms (`read respons`: two words, matched as adjacent parts of one identifier).
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
export type CandidateSource = 'content' | 'path' | 'mention' | 'symbol' | 'import' | 'neighbour' | 'commit';

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
  /** Its first lines say a tool generated it (`Code generated … DO NOT EDIT`, `@generated`, flex): ranked as generated code. */
  generated?: boolean;
  /** Commits the task names (by hash) that changed this file, each with the number of files it changed. */
  commits?: Array<{ hash: string; files: number }>;
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
  /** The label of the root this cycle searched, when several roots were searched. */
  root?: string;
  /** Files deep mode added (`--deep`): callers, callees and imports of the best files, scored in this pass. */
  deep?: string[];
}

export interface Usage {
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  cacheHits: number;
}

/** A file's content in one prompt: the lines shown (1-based) and the bytes they took. */
export interface EgressPart {
  /** Root-relative POSIX path. */
  path: string;
  lines: number[];
  bytes: number;
}

/** One file in the egress manifest: every line range of it that was sent, and how many bytes. */
export interface EgressFile {
  path: string;
  /** Merged, sorted, 1-based inclusive. */
  ranges: Array<{ start: number; end: number }>;
  /** UTF-8 bytes of this file's content in prompts, summed over the requests that carried it. */
  bytes: number;
}

/** What left the machine for one provider: requests handed to its SDK, prompt bytes, files. */
export interface Egress {
  provider: string;
  model: string;
  /** Requests sent (the SDK's own retries resend the same body and are not counted again). */
  calls: number;
  /** HTTP requests made, the SDK's retries included: more than `calls` when one was retried (429, 5xx, a dropped connection). */
  attempts?: number;
  /** UTF-8 bytes of every prompt sent (instructions, task, code), after redaction. */
  bytes: number;
  /** Files whose content was in a prompt, by path. Paths named without content are not listed. */
  files: EgressFile[];
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
  /**
   * The roots searched, in the order given, when the run had several (or a labelled one): every
   * path in `files` and `candidates` then reads `label:path`, and `root` is the first root's path.
   */
  roots?: RootResult[];
  /** Present when a model was configured for the run: what was sent to it (empty when nothing was). */
  egress?: Egress[];
}

/** A root of a run over several repositories. */
export interface RootResult {
  label: string;
  /** Absolute path. */
  path: string;
}

/** Reported through `onProgress` as the loop runs. */
export type ProgressEvent =
  | { type: 'plan'; query: Query }
  | { type: 'dispatch'; cycle: number; candidates: number; ms: number }
  | { type: 'evaluate'; cycle: number; scored: number; kept: number; ms: number }
  | { type: 'refine'; cycle: number; gaps: string[]; stop: boolean; why: string }
  | { type: 'pack'; files: number; tokens: number };

/** Which trace syntax a frame was read from. */
export type FrameFormat = 'python' | 'pytest' | 'v8' | 'firefox' | 'jvm' | 'go' | 'rust' | 'sanitizer' | 'gdb' | 'valgrind' | 'assert' | 'location';

/** One frame of a stack trace (or a bare `file:line` an error message points at). */
export interface StackFrame {
  /**
   * The source path as the trace writes it, tidied: POSIX slashes, no `file://` or `webpack:///`
   * scheme, no drive letter, no `./`. Absent when the frame names only a function (a binary
   * without debug info, `at new RegExp (<anonymous>)`).
   */
  file?: string;
  /** 1-based. */
  line?: number;
  column?: number;
  /** The function, method or class, reduced to its own name (`parse_line` for `app::parse::parse_line::h12ab…`). */
  symbol?: string;
  /** The name as written when it says more than `symbol` (`com.acme.Parser.parse`, `app::parse::parse_line`). */
  qualified?: string;
  format: FrameFormat;
  /** Which trace of the text the frame belongs to (0 = the first printed). A `Caused by`, a chained Python exception, another goroutine, a sanitizer's `freed by` block each start one. */
  trace: number;
  /** Distance from where the error was raised, within its trace, counting only frames that are not `runtime`: 0 = the innermost. */
  depth: number;
  /** A frame of the language's runtime or standard library (`node:internal`, `/usr/lib/python3.11/`, `java.util.`, `/rustc/`, libc): rarely where a bug is. */
  runtime: boolean;
}

/** An error a text reports: `ValueError: bad input`, `panic: index out of range`, `AddressSanitizer: heap-use-after-free`. */
export interface ErrorReport {
  /** `ValueError`, `java.lang.NullPointerException`, `panic`, `heap-use-after-free`, `SIGSEGV`… */
  type?: string;
  message: string;
  /** The trace it heads (see `StackFrame.trace`); -1 when no frame follows it. */
  trace: number;
}

/** Stack traces and error messages found in a text. */
export interface ParsedTrace {
  /** In the order written. */
  frames: StackFrame[];
  errors: ErrorReport[];
  /**
   * The trace nearest the error's origin: the root cause of a JVM `Caused by` chain, the first of
   * a chained Python traceback, the panicking goroutine, the sanitizer's first report; -1 when
   * no frame was found.
   */
  primary: number;
}

/** A frame of the error text with the repository file it maps to. */
export interface LocatedFrame extends StackFrame {
  /** Root-relative path of the file the frame's path names; absent when none (or several equally) match. */
  path?: string;
}

/** One suspect of `locate()`. */
export interface LocateCandidate {
  /** Root-relative POSIX path. */
  path: string;
  /** 0–1: how sure the evidence makes the bug is here (the evidence pieces combined, not a probability). */
  confidence: number;
  /** One line: which frames, definitions, messages and history point here. */
  reason: string;
  /** The line the strongest frame points at, or the definition of a frame's function. */
  line?: number;
  /** The definition around `line`, or the frame's function. */
  symbol?: string;
}

/** What `locate()` returns, and `ctxloop locate --json` prints. */
export interface LocateResult {
  root: string;
  /** The error the text reports (the origin's, when it reports several); absent when none was recognised. */
  error?: ErrorReport;
  /** Every frame parsed, in the order written, with its file in the repository. */
  frames: LocatedFrame[];
  /** Best first, at most `limit` (default 5). */
  candidates: LocateCandidate[];
  /** Commits read for recency and churn: 0 when no history was available (not a git repository, git missing, `historyDepth: 0`). */
  historyCommits: number;
}

/** One definition in a call chain. */
export interface TraceNode {
  symbol: string;
  /** Root-relative POSIX path. */
  file: string;
  /** First line of the definition (1-based). */
  line: number;
  kind: SymbolDef['kind'] | 'module';
  /** Where the call that links this node to its parent is written (a line of the caller's file). */
  callLine?: number;
  /** Definitions that call this one (direction `callers` or `both`). Absent: not expanded (the depth ran out); empty: none found. */
  callers?: TraceNode[];
  /** Definitions this one calls (direction `callees` or `both`). Absent: not expanded; empty: none found in the repository. */
  callees?: TraceNode[];
  /**
   * Set where the chain came back to a definition already on it (same file and name): the node
   * is not expanded again. Snake case because the issue that specified the field named it so.
   */
  cycle_detected?: true;
}

/** What `trace()` returns, and `ctxloop trace --json` prints. */
export interface TraceResult {
  symbol: string;
  root: string;
  direction: 'callers' | 'callees' | 'both';
  depth: number;
  /** One tree per definition of the symbol (a name may be defined in several files). */
  definitions: TraceNode[];
  /** True when the node budget cut the walk short, or when no definition was found among the files one search reads (more hold the name). */
  truncated: boolean;
}
