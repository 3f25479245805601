import { join } from 'node:path';
import { isAbortError, throwIfAborted, toError } from '../core/errors.js';
import { prepareCheckout } from './checkout.js';
import { languageOfTask, MISS, scoreRanking } from './metrics.js';
import { createRunner, type ModelChoice } from './methods.js';
import type { EvalMethod, EvalRecord, EvalTask, MethodOutput, MethodRunner, MethodRunOptions } from './types.js';

/** Ranking entries kept in a record (metrics use the whole ranking). */
export const RECORDED_RANKING = 20;

export interface EvalOptions {
  tasks: readonly EvalTask[];
  /** Folder of the mirrors (see `locateMirror`). */
  reposDir: string;
  /** Holds one clone per repository and, for ctxloop, `cache/`. */
  workDir: string;
  /** @default 'ctxloop' */
  method?: EvalMethod;
  /** Also run ctxloop with one cycle and record that ranking. @default false */
  cycle1?: boolean;
  /** Cycles at most for ctxloop (its own default when absent). */
  maxCycles?: number;
  /** Use `<workDir>/cache` as ctxloop's cache. @default true */
  cache?: boolean;
  /** The model that judges, for ctxloop. @default { provider: 'offline' } */
  model?: ModelChoice;
  /** Runs the method; tests inject one. @default the method's real runner */
  runner?: MethodRunner;
  /** Prepares a task's checkout and returns its root. @default prepareCheckout under workDir */
  checkout?: (task: EvalTask) => Promise<string>;
  /** Called after each task, in dataset order. */
  onRecord?: (record: EvalRecord, done: number, total: number) => void | Promise<void>;
  signal?: AbortSignal;
}

/**
 * Runs the method over the tasks in dataset order. A task that throws (checkout or method) is
 * recorded with its message and counts as a miss; the run goes on. Only an abort stops it.
 */
export async function runEval(options: EvalOptions): Promise<EvalRecord[]> {
  const method = options.method ?? 'ctxloop';
  const runner = options.runner ?? (await createRunner(method, options.cache === false ? false : join(options.workDir, 'cache'), options.model));
  const checkout = options.checkout ?? (async (task: EvalTask) => (await prepareCheckout(options.reposDir, task.repo, task.base_commit, options.workDir)).root);
  const records: EvalRecord[] = [];
  for (const task of options.tasks) {
    throwIfAborted(options.signal);
    const record = await runTask(task, { ...options, method, runner, checkout });
    records.push(record);
    await options.onRecord?.(record, records.length, options.tasks.length);
  }
  return records;
}

type TaskContext = EvalOptions & { method: EvalMethod; runner: MethodRunner; checkout: (task: EvalTask) => Promise<string> };

async function runTask(task: EvalTask, context: TaskContext): Promise<EvalRecord> {
  const record: EvalRecord = {
    id: task.id,
    repo: task.repo,
    language: languageOfTask(task),
    method: context.method,
    ranking: [],
    files: [],
    gold: task.gold_files,
    metrics: MISS,
    tokens: 0,
    seconds: 0,
    checkoutSeconds: 0,
  };
  let started = performance.now();
  let root: string;
  try {
    root = await context.checkout(task);
  } catch (error) {
    record.checkoutSeconds = elapsed(started);
    return { ...record, error: `checkout: ${toError(error).message}` };
  }
  record.checkoutSeconds = elapsed(started);
  started = performance.now();
  const full = await attempt(() => context.runner(task.task, withRunOptions(root, context)), context.signal);
  record.seconds = elapsed(started);
  if (full instanceof Error) {
    record.error = full.message;
  } else {
    Object.assign(record, summarize(full, task.gold_files));
  }
  if (context.cycle1 && context.method === 'ctxloop') {
    const first = await attempt(() => context.runner(task.task, { ...withRunOptions(root, context), maxCycles: 1 }), context.signal);
    record.cycle1 = first instanceof Error ? { ranking: [], metrics: MISS } : { ranking: first.ranking.slice(0, RECORDED_RANKING), metrics: scoreRanking(first.ranking, task.gold_files) };
    if (first instanceof Error && record.error === undefined) record.error = `cycle 1: ${first.message}`;
  }
  return record;
}

function summarize(output: MethodOutput, gold: string[]): Pick<EvalRecord, 'ranking' | 'files' | 'metrics' | 'tokens' | 'model'> {
  return {
    ranking: output.ranking.slice(0, RECORDED_RANKING),
    files: output.files,
    metrics: scoreRanking(output.ranking, gold),
    tokens: output.tokens,
    ...(output.model ? { model: output.model } : {}),
  };
}

function withRunOptions(root: string, context: TaskContext): MethodRunOptions {
  const options: MethodRunOptions = { root };
  if (context.maxCycles !== undefined) options.maxCycles = context.maxCycles;
  if (context.signal !== undefined) options.signal = context.signal;
  return options;
}

async function attempt<T>(run: () => Promise<T>, signal: AbortSignal | undefined): Promise<T | Error> {
  try {
    return await run();
  } catch (error) {
    if (signal?.aborted && isAbortError(error)) throw error;
    // Recorded on the task as a failure (a miss); one bad task never stops the run.
    return toError(error);
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}
