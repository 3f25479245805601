import type { Cache, EvalInput, EvalOutput, Evaluator } from '../core/deps.js';
import { queryKey, scoreKey } from '../core/keys.js';
import type { Candidate, Score } from '../core/types.js';

/**
 * Evaluates through the score cache: files whose (evaluator, model, version, task query, content
 * hash) were scored before are not sent again, so a warm repeat of a task on unchanged code makes
 * no model calls. Only for evaluators whose scores are per-file (`independent`); files without
 * known content (no facts read) are always evaluated.
 */
export async function evaluateCached(evaluator: Evaluator, cache: Cache, input: EvalInput, signal?: AbortSignal): Promise<EvalOutput> {
  if (!evaluator.independent) return evaluator.evaluate(input, signal);
  const query = queryKey(input.plan);
  const keyOf = (path: string): string | undefined => {
    const facts = input.facts.get(path);
    if (!facts) return undefined;
    return scoreKey({ evaluator: evaluator.id, model: evaluator.model, promptVersion: evaluator.version ?? 0, queryKey: query, contentHash: facts.hash });
  };

  const cached: Score[] = [];
  const rest: Candidate[] = [];
  for (const candidate of input.candidates) {
    const key = keyOf(candidate.path);
    const hit = key === undefined ? undefined : cache.getScore(key);
    if (hit) cached.push({ ...hit, path: candidate.path });
    else rest.push(candidate);
  }
  const fresh: EvalOutput = rest.length > 0 ? await evaluator.evaluate({ ...input, candidates: rest }, signal) : { scores: [], usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 } };
  const standIns = new Set(fresh.standIns ?? []);
  for (const score of fresh.scores) {
    // Offline stand-ins are right for this run, but they are not this evaluator's verdict.
    if (standIns.has(score.path)) continue;
    const key = keyOf(score.path);
    if (key !== undefined) cache.setScore(key, score);
  }
  const output: EvalOutput = { scores: [...cached, ...fresh.scores], usage: { ...fresh.usage, cacheHits: fresh.usage.cacheHits + cached.length } };
  if (fresh.standIns) output.standIns = fresh.standIns;
  return output;
}
