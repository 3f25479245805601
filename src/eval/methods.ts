import { CtxloopError, toError } from '../core/errors.js';
import type { ProviderName, RetrieveOptions } from '../core/options.js';
import type { RetrieveResult } from '../core/types.js';
import { rankBm25 } from './bm25.js';
import { createDocumentCache } from './documents.js';
import type { EvalMethod, MethodOutput, MethodRunner } from './types.js';

export type RetrieveFunction = (task: string, options?: RetrieveOptions) => Promise<RetrieveResult>;

/** Loads `retrieve` on first use, so the bm25 method and the tests never load the search stack. */
export async function loadRetrieve(): Promise<RetrieveFunction> {
  return (await import('../orchestrator/loop.js')).retrieve;
}

/** Which model judges: offline unless `--provider` says otherwise. */
export interface ModelChoice {
  provider: ProviderName;
  model?: string;
}

/** The loop on one checkout (offline unless a provider is chosen): ranking = `files` then `candidates`. */
export function createCtxloopRunner(retrieve: RetrieveFunction, cache: string | false, choice: ModelChoice = { provider: 'offline' }): MethodRunner {
  return async (task, { root, maxCycles, signal }) => {
    const options: RetrieveOptions = { root, provider: choice.provider, cache };
    if (choice.model !== undefined) options.model = choice.model;
    if (maxCycles !== undefined) options.maxCycles = maxCycles;
    if (signal !== undefined) options.signal = signal;
    return toMethodOutput(await retrieve(task, options));
  };
}

export function toMethodOutput(result: Pick<RetrieveResult, 'files' | 'candidates' | 'tokens'> & Partial<RetrieveResult>): MethodOutput {
  const files = result.files.map((file) => file.path);
  const ranking = [...new Set([...files, ...result.candidates.map((candidate) => candidate.path)])];
  const output: MethodOutput = { ranking, files, tokens: result.tokens };
  // A run that asked a model (or meant to, and fell back) reports what it cost.
  if (result.usage && (result.provider !== 'offline' || result.fallback)) {
    output.model = { provider: result.provider ?? 'offline', calls: result.usage.llmCalls, inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, cycles: result.cycles?.length ?? 0 };
    if (result.fallback) output.model.fallback = result.fallback.reason;
  }
  return output;
}

/** The BM25 baseline; it packs nothing. Content terms are cached by blob across a repository's tasks. */
export function createBm25Runner(): MethodRunner {
  const cache = createDocumentCache();
  return async (task, { root }): Promise<MethodOutput> => {
    const ranked = await rankBm25(task, root, cache);
    return { ranking: ranked.map((entry) => entry.path), files: [], tokens: 0 };
  };
}

/**
 * The method's runner. The loop is loaded here, before the first task: a loop that cannot load
 * fails the run (exit 1) instead of failing every task one by one.
 */
export async function createRunner(method: EvalMethod, cache: string | false, choice?: ModelChoice): Promise<MethodRunner> {
  if (method === 'bm25') return createBm25Runner();
  let retrieve: RetrieveFunction;
  try {
    retrieve = await loadRetrieve();
  } catch (error) {
    throw new CtxloopError('internal', `cannot load the loop (src/orchestrator/loop.ts): ${toError(error).message.split('\n')[0]}`, { cause: error });
  }
  return createCtxloopRunner(retrieve, cache, choice);
}
