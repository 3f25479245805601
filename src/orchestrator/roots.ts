import { setMaxListeners } from 'node:events';
import { realpathSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import pLimit from 'p-limit';
import { isAbortError, UsageError } from '../core/errors.js';
import { isInsideRoot } from '../core/inside.js';
import type { RetrieveOptions, RootSpec } from '../core/options.js';
import { isRootLabel, LABEL_RULE, LABEL_SEPARATOR, labelPath } from '../core/roots.js';
import type { Egress, RetrieveResult, RootResult, Usage } from '../core/types.js';
import { assembleResult, readPackMaterial, type Finished, type PackMaterial } from './finish.js';
import { runCycles, type LoopContext } from './loop.js';

/** A root with its label settled. */
export interface LabelledRoot {
  label: string;
  path: string;
}

/** Roots one task may search: each is its own listing, scan and cache (1,000 took 29 s and 320 MB). */
export const MAX_ROOTS = 64;

/**
 * Roots whose loops run at once: one per core (two at least, so a root waiting on a model leaves
 * another working). Sixteen 20,000-file roots at once on two cores ran every content scan out of
 * its time, and memory grew with the number of roots.
 */
export function rootsAtOnce(): number {
  return Math.max(2, availableParallelism());
}

/**
 * `roots` → labelled roots, or undefined for a run over `root` alone. A root without a label
 * takes its directory's name. Bad or duplicate labels, and `root` together with `roots`, are
 * usage errors; missing directories are found when each root is resolved.
 */
export function labelRoots(options: Pick<RetrieveOptions, 'root' | 'roots'>): LabelledRoot[] | undefined {
  const { roots } = options;
  if (roots === undefined) return undefined;
  if (options.root !== undefined) throw new UsageError('bad_option', 'give either root or roots, not both');
  if (roots.length === 0) throw new UsageError('bad_option', 'roots is empty: give at least one directory');
  if (roots.length > MAX_ROOTS) throw new UsageError('bad_option', `roots holds ${roots.length} directories, at most ${MAX_ROOTS} are searched for one task: search the directory that holds them, with scope`);
  const labelled = roots.map((spec, i) => ({ label: labelOf(spec, i), path: spec.path }));
  const seen = new Map<string, string>();
  for (const root of labelled) {
    const other = seen.get(root.label);
    if (other !== undefined) {
      // one directory given twice (`r1` and `r1/`, a link to it) takes one name twice: said as what it is
      if (sameDirectory(other, root.path)) throw new UsageError('bad_option', other === root.path ? `root ${other} is given twice: give it once` : `${other} and ${root.path} are the same directory: give it once`);
      throw new UsageError('bad_option', `two roots have the label "${root.label}" (${other} and ${root.path}): give each its own, e.g. --root ${root.label}2=${root.path}`);
    }
    seen.set(root.label, root.path);
  }
  return labelled;
}

/** Whether two paths name one directory (through links too); paths that do not resolve compare as written. */
function sameDirectory(a: string, b: string): boolean {
  const real = (path: string): string => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return real(a) === real(b);
}

function labelOf(spec: RootSpec, index: number): string {
  if (typeof spec?.path !== 'string' || spec.path.trim() === '') throw new UsageError('bad_option', `root ${index + 1} has no path`);
  if (spec.label === undefined) {
    // The directory's name, made a valid label; a name with nothing usable gets a number.
    const name = basename(resolve(spec.path)).replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
    return name || `root${index + 1}`;
  }
  if (!isRootLabel(spec.label)) {
    throw new UsageError('bad_option', `bad root label ${JSON.stringify(spec.label)}: ${LABEL_RULE}`);
  }
  return spec.label;
}

/** The scope entries of one root: `label:dir` entries for this label, and every plain entry. */
export function scopeFor(scope: readonly string[] | undefined, label: string, labels: readonly string[]): string[] | undefined {
  if (scope === undefined) return undefined;
  const out: string[] = [];
  for (const entry of scope) {
    const at = entry.indexOf(LABEL_SEPARATOR);
    const prefix = at > 0 ? entry.slice(0, at) : undefined;
    if (prefix !== undefined && labels.includes(prefix)) {
      if (prefix === label) out.push(entry.slice(at + 1) || '.');
    } else {
      out.push(entry);
    }
  }
  return out;
}

/** A root whose options are resolved: its directory exists, its config file and scope are valid. */
export interface ResolvedRoot {
  /** Absolute, symlinks resolved. */
  path: string;
  /** Builds its loop (caches, evaluator); `announce` says the provider on the logger. */
  start(announce: boolean): Promise<LoopContext>;
}

export interface AcrossRoots {
  roots: readonly LabelledRoot[];
  /** Resolves one root's options, with `signal` in them: a bad root fails here, before any run. */
  resolve(root: LabelledRoot, signal: AbortSignal): Promise<ResolvedRoot>;
  signal?: AbortSignal | undefined;
}

interface RootRun {
  root: LabelledRoot;
  ctx: LoopContext;
  run: Finished;
  material: PackMaterial;
}

/**
 * One task over several roots: each root runs its own loop (`rootsAtOnce` at a time), then all
 * their scores are ranked together (each root's scores are 0–1 on its own evidence) and packed
 * within the first root's budget, paths reading `label:path`. A failing root stops the others.
 */
export async function retrieveAcrossRoots({ roots, resolve: resolveRoot, signal }: AcrossRoots): Promise<RetrieveResult> {
  const controller = new AbortController();
  // every root's run listens to it, a few listeners each: eleven roots passed Node's leak warning
  // of ten listeners (printed on stderr, even under --quiet); they are all removed as runs end
  setMaxListeners(0, controller.signal);
  const stop = (): void => controller.abort();
  if (signal?.aborted) stop();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    // Every root is checked before any starts, so a bad one fails alone and first.
    const checked = await settleAll(roots.map((root) => resolveRoot(root, controller.signal)), stop);
    const labelled = checked.map((r, i) => ({ label: roots[i]!.label, path: r.path }));
    refuseOverlap(labelled);
    // The provider is the same choice for every root: said once.
    const contexts = await Promise.all(checked.map((r, i) => r.start(i === 0)));
    const resolved = contexts.map((ctx, i) => ({ root: labelled[i]!, ctx }));
    const limit = pLimit(rootsAtOnce());
    const runs = await settleAll(
      resolved.map(({ root, ctx }) => limit(async (): Promise<RootRun> => {
        const run = await runCycles(ctx);
        const material = await readPackMaterial(ctx.deps.facts, ctx.options.root, run, ctx.options.threshold, controller.signal);
        await ctx.deps.cache.flush();
        return { root, ctx, run, material };
      })),
      stop,
    );
    const first = runs[0]!;
    const merged = mergeRuns(runs);
    const result = assembleResult(
      { task: first.ctx.task, root: first.root.path, options: first.ctx.options, tokenizer: first.ctx.deps.tokenizer, onProgress: first.ctx.onProgress, egress: mergeEgress(runs) },
      merged.run,
      merged.material,
    );
    const listed: RootResult[] = runs.map((r) => ({ label: r.root.label, path: r.root.path }));
    return { ...result, roots: listed };
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}

/** Each root's egress manifest with its paths labelled as the result's are; undefined when no root had a model. */
function mergeEgress(runs: readonly RootRun[]): Egress[] | undefined {
  if (!runs.some((r) => r.ctx.model)) return undefined;
  return runs.flatMap((r) => (r.ctx.model?.egress.report() ?? []).map((e) => ({ ...e, files: e.files.map((f) => ({ ...f, path: labelPath(r.root.label, f.path) })) })));
}

/**
 * Waits for every promise, so no search of another root is left running, and rethrows the first
 * failure that is not the abort it caused in the others.
 */
async function settleAll<T>(promises: Promise<T>[], stop: () => void): Promise<T[]> {
  const settled = await Promise.allSettled(promises.map((p) => p.catch((error: unknown) => {
    stop();
    throw error;
  })));
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
  if (failures.length > 0) throw failures.find((e) => !isAbortError(e)) ?? failures[0];
  return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
}

/**
 * Two roots over the same files (one directory twice, or one inside another) would list, score
 * and pack those files twice; a root inside another is refused even where the outer one ignores it.
 */
function refuseOverlap(roots: readonly LabelledRoot[]): void {
  for (const [i, root] of roots.entries()) {
    for (const other of roots.slice(0, i)) {
      if (other.path === root.path) throw new UsageError('bad_option', `roots ${other.label} and ${root.label} are the same directory (${root.path}): give it once`);
      const [outer, inner] = isInsideRoot(other.path, root.path) ? [other, root] : isInsideRoot(root.path, other.path) ? [root, other] : [];
      if (outer && inner) {
        // Said as a rule, not as "searched twice": the outer root may ignore the inner directory.
        throw new UsageError('bad_option', `root ${inner.label} (${inner.path}) lies inside root ${outer.label} (${outer.path}): roots must not nest`, { hint: `give ${outer.label} alone (narrowed with --scope if need be), or directories side by side` });
      }
    }
  }
}

/** Every root's scores, facts, texts and gaps under labelled paths, as if one run had made them. */
function mergeRuns(runs: readonly RootRun[]): { run: Finished; material: PackMaterial } {
  const usage: Usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 };
  const merged: Finished = { scores: [], facts: new Map(), gaps: [], cycles: [], usage, provider: runs[0]!.run.provider, fallback: undefined };
  const texts = new Map<string, string>();
  for (const { root, run, material } of runs) {
    const label = (path: string): string => labelPath(root.label, path);
    for (const score of run.scores) merged.scores.push({ ...score, path: label(score.path) });
    for (const [path, facts] of run.facts) merged.facts.set(label(path), { ...facts, path: label(path) });
    for (const [path, text] of material.texts) texts.set(label(path), text);
    for (const gap of run.gaps) {
      if (gap.kind === 'symbol' && definedElsewhere(gap.target, root, runs)) continue;
      merged.gaps.push({ ...gap, question: `[${root.label}] ${gap.question}`, ...(gap.from === undefined ? {} : { from: label(gap.from) }) });
    }
    for (const cycle of run.cycles) merged.cycles.push({ ...cycle, root: root.label });
    usage.llmCalls += run.usage.llmCalls;
    usage.inputTokens += run.usage.inputTokens;
    usage.outputTokens += run.usage.outputTokens;
    usage.cacheHits += run.usage.cacheHits;
    // The provider that judged: a root that fell back is offline, the result says so once.
    if (run.fallback && !merged.fallback) merged.fallback = run.fallback;
    if (!run.fallback) merged.provider = run.provider;
  }
  return { run: merged, material: { texts } };
}

/**
 * True when another root's files at or above its threshold define `symbol`: the web app's call
 * to `handleLogin` is no gap when the API defines it. Only what that root will pack counts.
 */
function definedElsewhere(symbol: string, root: LabelledRoot, runs: readonly RootRun[]): boolean {
  return runs.some(({ root: other, run, ctx }) => {
    if (other.label === root.label) return false;
    return run.scores.some((s) => s.relevance >= ctx.options.threshold && run.facts.get(s.path)?.defs.some((d) => d.name === symbol));
  });
}
