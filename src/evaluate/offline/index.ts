import type { EvalInput, EvalOutput, Evaluator } from '../../core/deps.js';
import { packageSiblings, resolveImport } from '../../core/imports.js';
import { wholeTerm } from '../../core/text.js';
import type { Candidate, Score } from '../../core/types.js';
import { ANCHOR, calibrate, combineFeatures, definitionStrength } from './combine.js';
import { computeFeatures, idfOf, type Features } from './features.js';
import { findCopies } from './copies.js';
import { bundledCodeOf } from './bundled.js';
import { maintenanceScriptsOf } from './maintenance.js';
import { CLUSTER, nearStrongFiles } from './cluster.js';
import { findMissing } from './gaps.js';
import { findConstructedSymbols, findDelegatedSymbols } from './delegates.js';
import { describeEvidence, pickEvidenceLines } from './reason.js';
import { own } from '../../core/records.js';
import { titleScope } from './scope.js';

/** Files whose imports lend their neighbours a little score, and whose gaps are computed. */
const STRONG_FILES = 5;

/**
 * The embedded evaluator: code-aware lexical scoring (BM25F over content, path and defined
 * names), definitions over uses, path and stack-trace mentions, literal error strings, and the
 * import neighbourhood of the strongest files. Deterministic; no I/O.
 */
export function createOfflineEvaluator(): Evaluator {
  return {
    id: 'offline',
    model: 'offline',
    async evaluate(input: EvalInput): Promise<EvalOutput> {
      return { scores: scoreOffline(input), usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 } };
    },
  };
}

export function scoreOffline(input: EvalInput): Score[] {
  const { plan, facts, candidates, files } = input;
  const { features, raws } = rawScores(input);
  const relevance = calibrate(raws, features);

  const order = rankOrder(candidates, raws);
  const pool = new Map(candidates.map((c) => [c.path, c]));
  const top = new Set(order.slice(0, STRONG_FILES));
  return candidates.map((candidate, i) => {
    const f = features[i]!;
    const fileFacts = facts.get(candidate.path);
    const missing = top.has(i) && fileFacts ? findMissing(fileFacts, plan, pool, facts, files, i === order[0]) : [];
    return {
      path: candidate.path,
      relevance: relevance[i]!,
      reason: describeEvidence(candidate, f),
      missing,
      evidence: pickEvidenceLines(candidate, f, plan),
    };
  });
}

export interface RawScores {
  features: Features[];
  /** Evidence in the units of `ANCHOR`, before calibration; the ranking follows it. */
  raws: number[];
  /** Per candidate: the weighted definition strength (see `definitionStrength`). */
  definitions: number[];
  /** Per candidate: the share of a strong file's score it gained as that file's neighbour. */
  neighbours: number[];
  /** Candidates that copy another candidate (their raw score is cut to `ANCHOR.copy`). */
  copies: Set<number>;
}

/** Features and uncalibrated scores of every candidate (calibration scripts read these too). */
export function rawScores(input: EvalInput): RawScores {
  const { plan, query, stats, facts, candidates } = input;
  const literalCounts = countBy(candidates, (c) => c.literals);
  const mentionCounts = countBy(candidates, (c) => c.mentions);
  const ctx = { plan, query, stats, facts, literalCounts, mentionCounts, bundled: bundledCodeOf(input.files), maintenance: maintenanceScriptsOf(input.files), scope: titleScope(input.task) };
  const planSymbols = new Set(plan.symbols);
  const features = candidates.map((c) => computeFeatures(c, ctx));
  const symbolWeight = (symbol: string): number => {
    const term = wholeTerm(symbol);
    // A gap symbol (called by a strong file) counts half as much as one the task names.
    const weight = planSymbols.has(symbol) ? (own(plan.weights, term) ?? 1) : 0.5;
    // A name defined in many files (a common method name) proves less than a unique one.
    return weight * Math.min(1, idfOf(term, stats) / 5);
  };
  // a facade's definition that hands the call on to another candidate counts there, not here
  const delegated = findDelegatedSymbols(candidates, features.map((f) => f.defines), facts);
  // a factory's definition that only builds another candidate's class counts there
  const constructed = findConstructedSymbols(candidates, features.map((f) => f.defines), facts);
  const definitions = features.map((f, i) => {
    const handed = new Set([...(delegated.get(i) ?? []), ...(constructed.handed.get(i) ?? [])]);
    const gained = [...(constructed.gained.get(i) ?? [])].filter((s) => !f.defines.includes(s));
    return definitionStrength(handed.size > 0 || gained.length > 0 ? { ...f, defines: [...f.defines.filter((s) => !handed.has(s)), ...gained] } : f, symbolWeight);
  });
  const raws = features.map((f, i) => combineFeatures(f, definitions[i]!));
  const copies = new Set(findCopies(candidates, plan.keywords));
  for (const i of copies) raws[i]! *= ANCHOR.copy;
  const neighbours = addNeighbourBonus(candidates, raws, input);
  const near = nearStrongFiles(candidates.map((c) => c.path), input.previous ?? []);
  near.forEach((share, i) => (raws[i]! *= 1 + CLUSTER.weight * share));
  return { features, raws, definitions, neighbours, copies };
}

/** Files imported by the strongest files, and the other files of their package, gain a small share of their score. */
function addNeighbourBonus(candidates: Candidate[], raws: number[], input: EvalInput): number[] {
  const index = new Map(candidates.map((c, i) => [c.path, i]));
  const bonus = new Array<number>(raws.length).fill(0);
  for (const i of rankOrder(candidates, raws).slice(0, STRONG_FILES)) {
    const fileFacts = input.facts.get(candidates[i]!.path);
    if (!fileFacts) continue;
    const imported = fileFacts.imports.slice(0, 60).flatMap((spec) => resolveImport(fileFacts.path, spec, fileFacts.language, input.files));
    for (const target of new Set([...imported, ...packageSiblings(fileFacts.path, fileFacts.language, input.files)])) {
      const j = index.get(target);
      if (j === undefined || j === i) continue;
      bonus[j] = Math.max(bonus[j]!, ANCHOR.neighbour * raws[i]!);
    }
  }
  bonus.forEach((b, j) => (raws[j]! += b));
  return bonus;
}

/** Candidate indexes best first; ties by path so the same input always gives the same order. */
export function rankOrder(candidates: Candidate[], raws: number[]): number[] {
  return candidates
    .map((_, i) => i)
    .sort((a, b) => raws[b]! - raws[a]! || (candidates[a]!.path < candidates[b]!.path ? -1 : 1));
}

function countBy(candidates: Candidate[], values: (c: Candidate) => string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of candidates) for (const v of values(c)) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

export type { Features };
