import type { FactsReader, Tokenizer } from '../core/deps.js';
import type { ResolvedOptions } from '../core/options.js';
import type { Egress, FileFacts, Gap, CycleTrace, ProgressEvent, RetrieveResult, Score, Usage } from '../core/types.js';
import { packFiles } from '../pack/pack.js';
import type { LoopContext } from './loop.js';
import { shownScore } from '../core/numbers.js';
import { createShownRedactor } from '../core/redact-query.js';
import { MAX_TASK_CHARS } from '../core/text.js';
import { UNREAD_REASON } from '../core/pack-text.js';

/** Candidates listed after the packed files. */
const MAX_LISTED_CANDIDATES = 50;

export interface Finished {
  scores: Score[];
  facts: Map<string, FileFacts>;
  gaps: Gap[];
  cycles: CycleTrace[];
  usage: Usage;
  /** The provider whose scores stand (offline after a fallback). */
  provider: string;
  fallback: RetrieveResult['fallback'] | undefined;
}

/** What packing needs beyond the scores: the texts of the files at or above the threshold. */
export interface PackMaterial {
  texts: Map<string, string>;
}

/** What the result is assembled from besides the run: its head fields and the packing settings. */
export interface Assembly {
  task: string;
  root: string;
  options: Pick<ResolvedOptions, 'threshold' | 'budget' | 'withContent'>;
  tokenizer: Tokenizer;
  onProgress?: ((event: ProgressEvent) => void) | undefined;
  /** What went to a model, when one was configured (also when nothing was sent). */
  egress?: Egress[] | undefined;
}

/** Scores → the result contract: files ≥ threshold packed within the budget, the rest listed. */
export async function finish(ctx: LoopContext, run: Finished): Promise<RetrieveResult> {
  const { options, deps } = ctx;
  const material = await readPackMaterial(deps.facts, options.root, run, options.threshold, ctx.signal);
  // Every run that had a model says what it sent, also when that was nothing (all cached, or a fallback before the first call).
  const result = assembleResult({ task: ctx.task, root: options.root, options, tokenizer: deps.tokenizer, onProgress: ctx.onProgress, egress: ctx.model?.egress.report() }, run, material);
  await deps.cache.flush();
  return result;
}

/**
 * Reads, from `root`, the exact facts (syntax trees, where a grammar is bundled) and the texts
 * of every file at or above the threshold: the packer itself does no I/O, and cuts its regions
 * along those definitions. Facts are put in `run.facts`, in place of those the loop ranked on.
 */
export async function readPackMaterial(reader: FactsReader, root: string, run: Finished, threshold: number, signal?: AbortSignal): Promise<PackMaterial> {
  const keep = run.scores.filter((s) => s.relevance >= threshold);
  if (keep.length > 0) for (const [p, f] of await reader.read(root, keep.map((s) => s.path), signal, true)) run.facts.set(p, f);
  const texts = new Map<string, string>();
  for (const score of keep) {
    const text = await reader.readText(root, score.path);
    if (text !== undefined) texts.set(score.path, text);
  }
  return { texts };
}

/** Packs the files at or above the threshold within the budget and lists the rest. Pure but for `onProgress`. */
export function assembleResult(assembly: Assembly, run: Finished, material: PackMaterial): RetrieveResult {
  const { options } = assembly;
  const ranked = [...run.scores].sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1));
  const keep = ranked.filter((s) => s.relevance >= options.threshold);
  const { texts } = material;
  // scored at or above the threshold, but deleted, unreadable or replaced since the search: listed, saying so
  const unread = new Set(keep.filter((s) => !texts.has(s.path) || !run.facts.has(s.path)).map((s) => s.path));
  const packed = packFiles({ scores: keep.filter((s) => !unread.has(s.path)), facts: run.facts, texts, threshold: options.threshold, budget: options.budget, tokenizer: assembly.tokenizer, withContent: options.withContent });
  assembly.onProgress?.({ type: 'pack', files: packed.files.length, tokens: packed.tokens });
  const packedPaths = new Set(packed.files.map((f) => f.path));

  // What the result echoes of the task (and of what was found) is masked like a prompt: a pasted
  // log may hold a token, and the printed pack often goes on to a model.
  const shown = createShownRedactor(assembly.task);
  const result: RetrieveResult = {
    task: shown.text(echoOf(assembly.task)),
    root: assembly.root,
    provider: run.provider,
    files: packed.files.map((f) => ({ ...f, reason: shown.text(f.reason) })),
    candidates: ranked
      .filter((s) => !packedPaths.has(s.path))
      .slice(0, MAX_LISTED_CANDIDATES)
      .map((s) => ({ path: s.path, score: shownScore(s.relevance), reason: unread.has(s.path) ? `${UNREAD_REASON}; ${shown.text(s.reason)}` : shown.text(s.reason) })),
    gaps: run.gaps.map((g) => shown.text(g.question)),
    cycles: run.cycles,
    usage: run.usage,
    tokens: packed.tokens,
    cut: packed.cut,
  };
  if (run.fallback) result.fallback = run.fallback;
  // Every run that had a model says what it sent, also when that was nothing (all cached, or a fallback before the first call).
  if (assembly.egress) result.egress = assembly.egress;
  return result;
}

/** The task as the result echoes it: what the plan read of it, and how much more there was. */
function echoOf(task: string): string {
  if (task.length <= MAX_TASK_CHARS) return task;
  // cut at a space near the limit: half a token is a shape redaction might not know
  const space = Math.max(task.lastIndexOf(' ', MAX_TASK_CHARS), task.lastIndexOf('\n', MAX_TASK_CHARS));
  const cut = space > MAX_TASK_CHARS - 1000 ? space : MAX_TASK_CHARS;
  return `${task.slice(0, cut)}\n[… ${(task.length - cut).toLocaleString('en-US')} more characters, not read]`;
}
