/** The nouns of the evaluation harness: tasks in, per-task records out. */

/** One labelled task, as a dataset line holds it (paths POSIX, root-relative). */
export interface EvalTask {
  id: string;
  /** `owner/name`. */
  repo: string;
  base_commit: string;
  task: string;
  gold_files: string[];
  language?: string;
}

export type EvalMethod = 'ctxloop' | 'bm25';

/** How one ranking did against the gold files. */
export interface TaskMetrics {
  /** The first file is gold (0 or 1). */
  acc1: number;
  /** At least one gold file in the top 5 (0 or 1). */
  hit5: number;
  /** Every gold file in the top 5 (0 or 1). */
  acc5: number;
  /** Share of gold files in the top 10 (0–1). */
  recall10: number;
  /** Reciprocal rank of the first gold file, 0 when absent. */
  rr: number;
}

/** What a method returns for one task. */
export interface MethodOutput {
  /** Every ranked path, best first (for ctxloop: `files` then `candidates`). */
  ranking: string[];
  /** Packed paths (ctxloop `files`); empty for methods that do not pack. */
  files: string[];
  /** Tokens packed. */
  tokens: number;
  /** Model usage, when a model judged (absent offline and for bm25). */
  model?: ModelUsage;
}

/** What a model cost on one task, from the APIs' own usage fields. */
export interface ModelUsage {
  /** The provider whose scores stood (`offline` after a fallback). */
  provider: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cycles: number;
  /** `fallback.reason` when the run fell back to offline. */
  fallback?: string;
}

export interface MethodRunOptions {
  /** Absolute root of the checkout. */
  root: string;
  /** Cycles at most (ctxloop only). */
  maxCycles?: number;
  /** Cancels the run. */
  signal?: AbortSignal;
}

/** Runs one method on one task; throws when the method fails. */
export type MethodRunner = (task: string, options: MethodRunOptions) => Promise<MethodOutput>;

/** One line of the run's JSONL: a task and how the method did on it. */
export interface EvalRecord {
  id: string;
  repo: string;
  language: string;
  method: EvalMethod;
  /** Top 20 of the ranking. */
  ranking: string[];
  /** Packed paths. */
  files: string[];
  gold: string[];
  metrics: TaskMetrics;
  tokens: number;
  /** Seconds the method took (checkout excluded). */
  seconds: number;
  /** Seconds preparing the checkout. */
  checkoutSeconds: number;
  /** The same method stopped after one cycle (with `cycle1: true`). */
  cycle1?: { ranking: string[]; metrics: TaskMetrics };
  /** Why the task failed; a failed task counts as a miss. */
  error?: string;
  /** Model usage, when a provider other than offline was asked for. */
  model?: ModelUsage;
}
