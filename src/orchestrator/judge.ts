import type { Cache, EvalInput, EvalOutput, Evaluator, FactsReader } from '../core/deps.js';
import type { FileFacts, Score } from '../core/types.js';
import { scoreOffline } from '../evaluate/offline/index.js';
import { evaluateCached } from './score-cache.js';

export interface JudgeOptions {
  threshold: number;
  /** Candidates the model sees: the offline ranking's best. */
  modelCandidates: number;
  /** Found by subagents: judged even below the offline cut. */
  pinned: ReadonlySet<string>;
  root: string;
}

export interface JudgeOutput extends EvalOutput {
  /** Paths the model itself scored this cycle (cached verdicts included, offline stand-ins not). */
  judged: string[];
}

/** Files subagents add on top of the offline cut, at most. */
const MAX_PINNED = 10;

/**
 * Token thrift: the offline ranking runs first and the model judges only its top N (plus what
 * subagents found), through the score cache. Every other file keeps its offline score capped
 * just below the threshold, so only files the model judged are packed.
 */
export async function judgeCandidates(evaluator: Evaluator, cache: Cache, facts: FactsReader, input: EvalInput, options: JudgeOptions, signal?: AbortSignal): Promise<JudgeOutput> {
  const prior = scoreOffline(input);
  const priorByPath = new Map(prior.map((s) => [s.path, s]));
  const ranked = [...prior].sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1));
  const wanted = [...ranked.slice(0, options.modelCandidates).map((s) => s.path), ...ranked.filter((s) => options.pinned.has(s.path)).slice(0, MAX_PINNED).map((s) => s.path)];
  // The model sees each file as its syntax tree reads it (the loop ranked on patterns): its
  // outline is what the model judges by.
  const exact = wanted.length > 0 ? await facts.read(options.root, wanted, signal, true) : new Map<string, FileFacts>();
  // A file without facts has no content hash: it could never be cached, so it is not sent.
  const judged = new Set(wanted.filter((p) => exact.has(p)));

  const candidates = input.candidates.filter((c) => judged.has(c.path));
  const seen = { ...input, facts: new Map([...input.facts, ...exact]), candidates, prior: priorByPath };
  const output = candidates.length > 0 ? await evaluateCached(evaluator, cache, seen, signal) : { scores: [], usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 } };
  const cap = Math.max(0, options.threshold - 0.01);
  const rest = prior.filter((s) => !judged.has(s.path)).map((s): Score => (s.relevance > cap ? { ...s, relevance: cap, reason: `${s.reason} (not judged by the model)` } : s));
  const standIns = new Set(output.standIns ?? []);
  return { ...output, scores: [...output.scores, ...rest], judged: output.scores.map((s) => s.path).filter((p) => !standIns.has(p)) };
}
