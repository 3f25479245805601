import type { FileFacts, Gap, CycleTrace, RetrieveResult, Score, Usage } from '../core/types.js';
import { packFiles } from '../pack/pack.js';
import type { LoopContext } from './loop.js';
import { roundTo } from '../core/numbers.js';

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

/** Scores → the result contract: files ≥ threshold packed within the budget, the rest listed. */
export async function finish(ctx: LoopContext, run: Finished): Promise<RetrieveResult> {
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
    provider: run.provider,
    files: packed.files,
    candidates: ranked
      .filter((s) => !packedPaths.has(s.path))
      .slice(0, MAX_LISTED_CANDIDATES)
      .map((s) => ({ path: s.path, score: roundTo(s.relevance, 2), reason: s.reason })),
    gaps: run.gaps.map((g) => g.question),
    cycles: run.cycles,
    usage: run.usage,
    tokens: packed.tokens,
    cut: packed.cut,
  };
  if (run.fallback) result.fallback = run.fallback;
  return result;
}
