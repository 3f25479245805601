import type { Deps, EvalInput, EvalOutput, SearchRequest } from '../core/deps.js';
import { isProviderError, throwIfAborted, UsageError } from '../core/errors.js';
import { silentLogger } from '../core/log.js';
import { createShownRedactor, taskToPlan } from '../core/redact-query.js';
import { DEFAULTS, type ResolvedOptions, type RetrieveOptions } from '../core/options.js';
import type { Candidate, CycleTrace, FallbackReason, FileFacts, Gap, ProgressEvent, Query, RetrieveResult, Score, SearchStats, Usage } from '../core/types.js';
import { scoreOffline } from '../evaluate/offline/index.js';
import { planQuery } from '../refine/plan.js';
import { refineQuery } from '../refine/refine.js';
import { finish, type Finished } from './finish.js';
import { judgeCandidates } from './judge.js';
import type { ModelRoles } from './model-roles.js';
import { planWithModelRoles } from './model-plan.js';
import { refineWithModelRoles } from './model-refine.js';
import { createRetriever } from './retriever.js';
import { mergeCandidates, poolList } from './pool.js';
import { addCommitFiles, lookUpNamedCommits } from './named-commits.js';
import { findDeepCandidates } from './deep.js';
import { evaluateCached } from './score-cache.js';
import { runScouts } from './scouts.js';

/** Files whose structure is read each cycle (the rest are judged on their hit lines). */
const FACTS_PER_CYCLE = 20;

/**
 * Finds the code a task needs: plan → (dispatch → evaluate → refine) ≤ 3 cycles → pack.
 * @example
 * const result = await retrieve('TypeError in parseConfig when the file is empty', { root: '.' });
 * for (const file of result.files) console.log(file.path, file.score);
 */
export async function retrieve(task: string, options: RetrieveOptions = {}, deps: Partial<Deps> = {}): Promise<RetrieveResult> {
  return createRetriever(options, deps).retrieve(task);
}

export interface LoopContext {
  task: string;
  options: ResolvedOptions;
  deps: Deps;
  provider: string;
  /** The LLM roles, when a model is configured; the run goes on offline if it fails. */
  model?: ModelRoles;
  fallback?: RetrieveResult['fallback'];
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /**
   * Starts loading `deps.tokenizer`. The loop calls it as it starts (the tables load on a thread
   * of their own while the modules, the listing and the first dispatch run); a run whose result
   * was kept never gets here, and never loads them.
   */
  startTokenizer?: () => void;
  /** Resolves once `deps.tokenizer` can count, after `startTokenizer`. */
  tokenizerReady?: Promise<void>;
}

/** The loop itself, on resolved options and built dependencies. */
export async function runLoop(ctx: LoopContext): Promise<RetrieveResult> {
  return finish(ctx, await runCycles(ctx));
}

/**
 * Plan, then dispatch → evaluate → refine until the loop stops: the scores and gaps, not yet
 * packed. Several roots run this each and are packed together (roots.ts).
 */
export async function runCycles(ctx: LoopContext): Promise<Finished> {
  const { options, deps, signal } = ctx;
  const task = ctx.task.trim();
  if (!task) throw new UsageError('no_task', 'the task is empty', { hint: 'pass --task "…", --task-file FILE, or the task on stdin' });
  const emit = ctx.onProgress ?? (() => {});
  const logger = deps.logger ?? silentLogger;
  const usage: Usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 };
  let model = ctx.model;
  let provider = ctx.provider;
  let fallback = ctx.fallback;
  // Any unrecoverable provider failure: the run completes offline and says why, once.
  const fallBack = (error: unknown): void => {
    if (!isProviderError(error)) throw error;
    fallback = { reason: error.code as FallbackReason, message: error.message };
    logger.warn(`${error.message}; continuing offline`);
    model = undefined;
    provider = 'offline';
  };

  // A secret pasted into the task is not searched for: a term would reach gaps, the trace, the
  // refiner's prompt and the cache. What is shown is masked as well, whatever it is built from.
  const plan = planQuery(taskToPlan(task));
  const shown = createShownRedactor(task);
  emit({ type: 'plan', query: shown.query(plan) });
  const scope = { root: options.root, scope: options.scope, include: options.include, exclude: options.exclude, maxFileSize: options.maxFileSize, concurrency: options.concurrency };
  // Not awaited yet: the listing runs alongside the planner and the first dispatch, which shares it.
  // The tokenizer's tables load on their own thread from the start: a small repository's run is
  // over before they would be loaded if they started after the first dispatch, and then waited on.
  ctx.startTokenizer?.();
  const listing = deps.searcher.listFiles(scope, signal);
  listing.catch(() => undefined); // awaited (and its failure reported) after the first dispatch
  // the commits the task names, looked up alongside the first dispatch (never a failure: a hint)
  const namedCommits = lookUpNamedCommits(taskToPlan(task), options.root, deps.history, signal).catch(() => []);

  // `query` is what the evaluator scores against and refine builds on; `search` is what the next
  // dispatch runs: the same, widened by the LLM refiner's suggestions when there are any.
  let query: Query = plan;
  if (model) {
    try {
      const planned = await planWithModelRoles(model, task, plan, signal);
      addUsage(usage, planned.usage);
      query = planned.query;
    } catch (error) {
      fallBack(error);
    }
  }
  let search: Query = query;

  const pool = new Map<string, Candidate>();
  const facts = new Map<string, FileFacts>();
  const pinned = new Set<string>();
  const cycles: CycleTrace[] = [];
  let scores: Score[] = [];
  let gaps: Gap[] = [];
  let files: string[] = [];

  let stats: SearchStats = { totalFiles: 0, avgSize: 1, docFreq: {}, skipped: {} };
  // The names the next cycle borrows from the strongest files, and where they are looked for.
  let near: SearchRequest['near'];

  // Scores the whole pool (the model where there is one, offline otherwise); sets `scores`. `started`: when the evaluation began.
  const evaluatePool = async (cycle: number, started: number): Promise<{ judged: ReadonlySet<string>; kept: number }> => {
    const input: EvalInput = { task, plan, query, candidates: poolList(pool), facts, stats, files, previous: scores };
    await readFactsForTop(input, deps, options.root, signal);
    let evaluated: EvalOutput | undefined;
    let judged: ReadonlySet<string> = new Set();
    if (model) {
      try {
        const output = await judgeCandidates(model.evaluator, deps.cache, deps.facts, input, { threshold: options.threshold, modelCandidates: options.modelCandidates, pinned, root: options.root }, signal);
        judged = new Set(output.judged);
        evaluated = output;
      } catch (error) {
        fallBack(error);
      }
    }
    evaluated ??= await evaluateCached(deps.evaluator, deps.cache, input, signal);
    scores = evaluated.scores;
    addUsage(usage, evaluated.usage);
    const kept = scores.filter((s) => s.relevance >= options.threshold).length;
    emit({ type: 'evaluate', cycle, scored: scores.length, kept, ms: deps.clock.now() - started });
    return { judged, kept };
  };

  for (let cycle = 1; cycle <= options.maxCycles; cycle++) {
    throwIfAborted(signal);
    const started = deps.clock.now();
    // Refine's excludes are exact paths: a set here, not hundreds of globs in the searcher.
    const excluded = new Set(search.excludes);
    const dispatched = await deps.searcher.search({ ...scope, query: { ...search, excludes: [] }, maxCandidates: options.maxCandidates, unsaved: shown.secretTerms(search), ...(near ? { near } : {}) }, signal);
    if (cycle === 1) {
      files = await listing;
      // a model's evaluator counts the tokens of what it is shown
      if (model) await ctx.tokenizerReady;
    }
    stats = dispatched.stats;
    let added = mergeCandidates(pool, dispatched.candidates.filter((c) => !excluded.has(c.path) || c.sources.includes('import') || c.sources.includes('symbol')));
    if (cycle === 1) added += await addCommitFiles(pool, await namedCommits, new Set(files), options.root);
    emit({ type: 'dispatch', cycle, candidates: pool.size, ms: deps.clock.now() - started });

    const previous = scores;
    const { judged, kept } = await evaluatePool(cycle, deps.clock.now());

    const refined = refineQuery({ plan, query, scores, previous, pool, facts, threshold: options.threshold, cycle, maxCycles: options.maxCycles, openGaps: gaps });
    const persistent = refined.gaps.filter((g) => gaps.some((o) => o.kind === g.kind && o.target === g.target));
    gaps = refined.gaps;
    const trace: CycleTrace = { query: shown.query(traceQuery(search)), candidates: pool.size, kept, ms: Math.round(deps.clock.now() - started) };
    if (refined.closed.length > 0) trace.closed = refined.closed.map((g) => g.question);
    cycles.push(trace);
    // The LLM refiner, while the loop still wants files: its suggestions widen the next search.
    let next = { query: refined.next, search: refined.next };
    let suggested = false;
    if (model && cycle < options.maxCycles && (!refined.stop || kept < DEFAULTS.enoughFiles)) {
      try {
        // The model's own verdicts: offline scores of files it never saw would only mislead it.
        const verdicts = scores.filter((s) => judged.has(s.path));
        const step = await refineWithModelRoles(model, { task, scores: verdicts, gaps, dispatched: search, next: refined.next }, signal);
        addUsage(usage, step.usage);
        if (step.merged) {
          next = { query: step.merged.next, search: step.merged.search };
          suggested = step.merged.widened;
        }
      } catch (error) {
        fallBack(error);
      }
    }
    // Each dispatch searches every open gap for free. With a model, a critical gap that such a
    // search could not close, and a focus area the refiner named, become retrieval subagents;
    // what they find joins the pool and is judged next cycle, so new findings keep the loop going.
    const critical = persistent.filter((g) => g.kind !== 'symbol' || g.from !== undefined);
    const focusAreas = suggested ? newFocusAreas(next.search.focusAreas, [...search.focusAreas, ...refined.next.focusAreas], files) : [];
    let scouted = 0;
    if (model && (critical.length > 0 || focusAreas.length > 0) && cycle < options.maxCycles) {
      try {
        const found = await runScouts({ model, deps, scope, files, task, gaps: critical, focusAreas, signal });
        addUsage(usage, found.usage);
        scouted = mergeCandidates(pool, found.found);
        for (const candidate of found.found) pinned.add(candidate.path);
        if (found.found.length > 0) trace.scouted = found.found.map((c) => c.path);
      } catch (error) {
        fallBack(error);
      }
    }
    const stop = (refined.stop || (cycle > 1 && added === 0)) && scouted === 0 && !suggested;
    const why = scouted > 0 ? `subagents found ${scouted} new files` : suggested ? 'the refiner suggested new search terms' : added === 0 && cycle > 1 ? 'no new candidates' : refined.why;
    emit({ type: 'refine', cycle, gaps: gaps.map((g) => shown.text(g.question)), stop, why });
    logger.debug(`cycle ${cycle}: ${pool.size} candidates (+${added}), ${kept} ≥ ${options.threshold}; ${why}`);
    if (stop) break;
    query = next.query;
    search = next.search;
    near = refined.near;
  }

  if (options.deep) {
    // Deep mode: one more pass over what the best files call, are called by and import.
    throwIfAborted(signal);
    const started = deps.clock.now();
    const deep = await findDeepCandidates({ deps, options, scope, files, plan, scores, facts, pool, signal });
    logger.debug(`deep: ${deep.length} new files from the callers, callees and imports of the best files`);
    if (deep.length > 0) {
      mergeCandidates(pool, deep);
      for (const candidate of deep) pinned.add(candidate.path);
      const cycle = cycles.length + 1;
      emit({ type: 'dispatch', cycle, candidates: pool.size, ms: deps.clock.now() - started });
      const { kept } = await evaluatePool(cycle, deps.clock.now());
      cycles.push({ query: {}, candidates: pool.size, kept, ms: Math.round(deps.clock.now() - started), deep: deep.map((c) => c.path) });
    }
  }

  // whoever packs the scores counts tokens
  ctx.startTokenizer?.();
  await ctx.tokenizerReady;
  return { scores, facts, gaps, cycles, usage, provider, fallback };
}

/** Reads structure for the candidates an offline pre-ranking puts first (cached by content hash). */
async function readFactsForTop(input: EvalInput, deps: Deps, root: string, signal: AbortSignal | undefined): Promise<void> {
  const { candidates, facts } = input;
  const pre = scoreOffline(input);
  const order = pre
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s.relevance - a.s.relevance || (a.s.path < b.s.path ? -1 : 1))
    .map(({ i }) => candidates[i]!);
  const wanted = order.slice(0, FACTS_PER_CYCLE).map((c) => c.path).filter((p) => !facts.has(p));
  if (wanted.length === 0) return;
  for (const [path, read] of await deps.facts.read(root, wanted, signal)) facts.set(path, read);
}

/** Focus areas not searched before that name a directory holding searchable files (a model may invent one). */
function newFocusAreas(suggested: readonly string[], known: readonly string[], files: readonly string[]): string[] {
  const seen = new Set(known);
  return suggested
    .map((dir) => dir.trim().replace(/^\.\//, '').replace(/\/+$/, ''))
    .filter((dir) => dir !== '' && !seen.has(dir) && files.some((f) => f.startsWith(`${dir}/`)));
}

function traceQuery(query: Query): Partial<Query> {
  return {
    keywords: query.keywords.slice(0, 24),
    literals: query.literals,
    symbols: query.symbols,
    paths: query.paths.slice(0, 24),
    ...(query.focusAreas.length > 0 ? { focusAreas: query.focusAreas } : {}),
  };
}

function addUsage(total: Usage, more: Usage): void {
  total.llmCalls += more.llmCalls;
  total.inputTokens += more.inputTokens;
  total.outputTokens += more.outputTokens;
  total.cacheHits += more.cacheHits;
}
