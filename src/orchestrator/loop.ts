import type { Deps } from '../core/deps.js';
import { throwIfAborted, UsageError } from '../core/errors.js';
import { silentLogger } from '../core/log.js';
import type { ResolvedOptions, RetrieveOptions } from '../core/options.js';
import type { Candidate, CycleTrace, FileFacts, Gap, ProgressEvent, Query, RetrieveResult, Score, SearchStats, Usage } from '../core/types.js';
import { scoreOffline } from '../evaluate/offline/index.js';
import { packFiles } from '../pack/pack.js';
import { planQuery } from '../refine/plan.js';
import { refineQuery } from '../refine/refine.js';
import { createRetriever } from './retriever.js';
import { mergeCandidates, poolList } from './pool.js';
import { evaluateCached } from './score-cache.js';

/** Files whose structure is read each cycle (the rest are judged on their hit lines). */
const FACTS_PER_CYCLE = 40;
/** Candidates listed after the packed files. */
const MAX_LISTED_CANDIDATES = 50;

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
  fallback?: RetrieveResult['fallback'];
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
}

/** The loop itself, on resolved options and built dependencies. */
export async function runLoop(ctx: LoopContext): Promise<RetrieveResult> {
  const { options, deps, signal } = ctx;
  const task = ctx.task.trim();
  if (!task) throw new UsageError('no_task', 'the task is empty', { hint: 'pass --task "…", --task-file FILE, or the task on stdin' });
  const emit = ctx.onProgress ?? (() => {});
  const logger = deps.logger ?? silentLogger;

  const plan = planQuery(task);
  emit({ type: 'plan', query: plan });
  const scope = { root: options.root, scope: options.scope, include: options.include, exclude: options.exclude, maxFileSize: options.maxFileSize, concurrency: options.concurrency };
  const files = await deps.searcher.listFiles(scope, signal);

  const pool = new Map<string, Candidate>();
  const facts = new Map<string, FileFacts>();
  const cycles: CycleTrace[] = [];
  const usage: Usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 };
  let query: Query = plan;
  let scores: Score[] = [];
  let gaps: Gap[] = [];
  let stats: SearchStats = { totalFiles: files.length, avgSize: 1, docFreq: {}, skipped: {} };

  for (let cycle = 1; cycle <= options.maxCycles; cycle++) {
    throwIfAborted(signal);
    const started = deps.clock.now();
    // Refine's excludes are exact paths: a set here, not hundreds of globs in the searcher.
    const excluded = new Set(query.excludes);
    const dispatched = await deps.searcher.search({ ...scope, query: { ...query, excludes: [] }, maxCandidates: options.maxCandidates }, signal);
    stats = dispatched.stats;
    const added = mergeCandidates(pool, dispatched.candidates.filter((c) => !excluded.has(c.path) || c.sources.includes('import') || c.sources.includes('symbol')));
    emit({ type: 'dispatch', cycle, candidates: pool.size, ms: deps.clock.now() - started });

    const candidates = poolList(pool);
    await readFactsForTop(candidates, { plan, query, stats, files, facts, task }, deps, options.root, signal);
    const evaluated = await evaluateCached(deps.evaluator, deps.cache, { task, plan, query, candidates, facts, stats, files }, signal);
    scores = evaluated.scores;
    addUsage(usage, evaluated.usage);
    const kept = scores.filter((s) => s.relevance >= options.threshold).length;
    emit({ type: 'evaluate', cycle, scored: scores.length, kept, ms: deps.clock.now() - started });

    const refined = refineQuery({ plan, query, scores, pool, facts, threshold: options.threshold, cycle, maxCycles: options.maxCycles, openGaps: gaps });
    gaps = refined.gaps;
    const trace: CycleTrace = { query: traceQuery(query), candidates: pool.size, kept, ms: Math.round(deps.clock.now() - started) };
    if (refined.closed.length > 0) trace.closed = refined.closed.map((g) => g.question);
    cycles.push(trace);
    const stop = refined.stop || (cycle > 1 && added === 0);
    emit({ type: 'refine', cycle, gaps: gaps.map((g) => g.question), stop, why: added === 0 && cycle > 1 ? 'no new candidates' : refined.why });
    logger.debug(`cycle ${cycle}: ${pool.size} candidates (+${added}), ${kept} ≥ ${options.threshold}; ${refined.why}`);
    if (stop) break;
    query = refined.next;
  }

  return finish(ctx, { scores, facts, gaps, cycles, usage });
}

interface Finished {
  scores: Score[];
  facts: Map<string, FileFacts>;
  gaps: Gap[];
  cycles: CycleTrace[];
  usage: Usage;
}

async function finish(ctx: LoopContext, run: Finished): Promise<RetrieveResult> {
  const { options, deps } = ctx;
  const ranked = [...run.scores].sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1));
  const keep = ranked.filter((s) => s.relevance >= options.threshold);
  const missingFacts = keep.map((s) => s.path).filter((p) => !run.facts.has(p));
  if (missingFacts.length > 0) for (const [p, f] of await deps.facts.read(options.root, missingFacts, ctx.signal)) run.facts.set(p, f);
  const texts = new Map<string, string>();
  for (const score of keep) {
    const text = await deps.facts.readText(options.root, score.path);
    if (text !== undefined) texts.set(score.path, text);
  }
  const packed = packFiles({ scores: keep.filter((s) => texts.has(s.path) && run.facts.has(s.path)), facts: run.facts, texts, threshold: options.threshold, budget: options.budget, tokenizer: deps.tokenizer, withContent: options.withContent });
  ctx.onProgress?.({ type: 'pack', files: packed.files.length, tokens: packed.tokens });
  const packedPaths = new Set(packed.files.map((f) => f.path));
  await deps.cache.flush();

  const result: RetrieveResult = {
    task: ctx.task,
    root: options.root,
    provider: ctx.provider,
    files: packed.files,
    candidates: ranked
      .filter((s) => !packedPaths.has(s.path))
      .slice(0, MAX_LISTED_CANDIDATES)
      .map((s) => ({ path: s.path, score: round2(s.relevance), reason: s.reason })),
    gaps: run.gaps.map((g) => g.question),
    cycles: run.cycles,
    usage: run.usage,
    tokens: packed.tokens,
  };
  if (ctx.fallback) result.fallback = ctx.fallback;
  return result;
}

interface FactsInput {
  plan: Query;
  query: Query;
  stats: SearchStats;
  files: readonly string[];
  facts: Map<string, FileFacts>;
  task: string;
}

/** Reads structure for the candidates an offline pre-ranking puts first (cached by content hash). */
async function readFactsForTop(candidates: Candidate[], input: FactsInput, deps: Deps, root: string, signal: AbortSignal | undefined): Promise<void> {
  const pre = scoreOffline({ ...input, candidates, facts: input.facts });
  const order = pre
    .map((s, i) => ({ s, i }))
    .sort((a, b) => b.s.relevance - a.s.relevance || (a.s.path < b.s.path ? -1 : 1))
    .map(({ i }) => candidates[i]!);
  const wanted = order.slice(0, FACTS_PER_CYCLE).map((c) => c.path).filter((p) => !input.facts.has(p));
  if (wanted.length === 0) return;
  for (const [path, facts] of await deps.facts.read(root, wanted, signal)) input.facts.set(path, facts);
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

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
