import type { Features } from './features.js';
import { KIND_FACTOR } from './features.js';
import { isCodeLike } from '../../core/text.js';
import { roundTo } from '../../core/numbers.js';

/**
 * Weights of the anchors, in the units of one well-matched rare term (weight 1 × idf ≈ 6 × tf
 * saturation ≈ 1.5). A file the task names by path, or that defines a symbol the task names,
 * should beat a file that merely repeats the task's words.
 */
export const ANCHOR = {
  mention: 16,
  definition: 9,
  literal: 9,
  /**
   * A file changed by a commit the task names (a regression's or a revert's source), when that
   * commit changed it alone; one of n files gets 1/√n of it.
   */
  commit: 9,
  /** Share of a strong file's score given to the files it imports. */
  neighbour: 0.06,
  /** What a copy of another candidate keeps of its score (see copies.ts): the original says it all. */
  copy: 0.1,
} as const;

/** What a file that only imports or re-exports keeps of its evidence: its words are the names of the files it points at. */
export const BARREL_FACTOR = 0.7;

/**
 * What a file in the place the title's scope names gains on its evidence (`scope.ts`): its
 * evidence doubles. Over the titles with a scope in two task sets, 60–78 % of gold files lay in
 * the scope against 31–37 % of the other files ranked with them (the odds of a gold file rise
 * 3–6× there); half that (×1.5) took a smaller share of the gain.
 */
export const SCOPE_FACTOR = 1;

/** What code bundled from another project keeps of its evidence: it shares the task's words, seldom its subject. */
export const BUNDLED_FACTOR = 0.5;

/** The weighted strength of the definitions a file holds of the symbols sought (best three, harmonic). */
export function definitionStrength(f: Features, symbolWeight: (symbol: string) => number): number {
  return f.defines
    .map(symbolWeight)
    .sort((a, b) => b - a)
    .slice(0, 3)
    .reduce((sum, w, i) => sum + w / (i + 1), 0);
}

/** The raw score: lexical evidence plus anchors, demoted by file kind (a named path is exempt); `definition` is its `definitionStrength`. */
export function combineFeatures(f: Features, definition: number): number {
  const evidence = f.lexical + ANCHOR.definition * definition + ANCHOR.literal * Math.min(f.literal, 2) + ANCHOR.commit * f.commit;
  return evidence * KIND_FACTOR[f.kind] * (f.barrel ? BARREL_FACTOR : 1) * (f.bundled ? BUNDLED_FACTOR : 1) * (1 + SCOPE_FACTOR * f.scope) + ANCHOR.mention * f.mention;
}

/** Whether the file holds evidence beyond shared words: the things a reader would call proof. */
export function isAnchored(f: Features): boolean {
  return f.mention > 0 || f.defines.length > 0 || f.literal > 0;
}

/**
 * Proof strong enough to trust the best file outright: a path or literal from the task, or the
 * definition of a code-like name. Defining a plain word the task uses (`value`, `options`) is
 * common to unrelated tasks too: measured on tasks run against another project's repository,
 * a quarter of them had such a file on top.
 */
function isProof(f: Features, definers: ReadonlyMap<string, number>): boolean {
  return f.mention > 0 || f.literal > 0 || f.defines.some((s) => isCodeLike(s) && (definers.get(s) ?? 1) <= MAX_PROVING_DEFINERS);
}

/**
 * Candidates that may define a name before its definition proves nothing of any one of them:
 * jQuery's modules each extend `jQuery` (`jQuery.extend({…})`), an interface's implementations
 * each define its method.
 */
const MAX_PROVING_DEFINERS = 3;

/**
 * How sure the best file is needed. Proof: sure. A plain-word definition: half-way between
 * proof and words (as common on unrelated tasks as on real ones). Words only: by the share of
 * the task they cover, so a prose task that shares a few words with the code packs nothing.
 */
function confidenceIn(best: Features, definers: ReadonlyMap<string, number>): number {
  if (KIND_FACTOR[best.kind] < 0.45) return Math.min(0.9, 0.35 + 0.9 * best.coverage);
  if (isProof(best, definers)) return 0.95;
  return Math.min(0.9, (isAnchored(best) ? 0.5 : 0.35) + 0.9 * best.coverage);
}

/** Files at the head of the ranking whose evidence says how sure the ranking is. */
const HEAD = 2;

/** Files a task centres on, at most: the pack holds these; the rest are listed as candidates. */
const MAX_NEEDED = 4;

/**
 * Raw scores → 0–1 relevance, in the same order. The best file's relevance says how sure the
 * evidence is (proof: high; words only: by how much of the task it covers); the next few follow
 * it gently by their ratio to it (multi-file fixes spread evidence over files that score well
 * below the best), so "≥ 0.7" picks the handful of files close to a sure best, and nothing when
 * the best is weak. Beyond the first MAX_NEEDED, nothing reaches 0.7.
 */
export function calibrate(raws: number[], features: Features[]): number[] {
  const order = raws.map((_, i) => i).sort((a, b) => raws[b]! - raws[a]!);
  const topIndex = order[0];
  const top = topIndex === undefined ? 0 : raws[topIndex]!;
  if (topIndex === undefined || top <= 0) return raws.map(() => 0);
  // How sure the head of the ranking is: the surer of its first two files, not the first alone
  // (a demoted barrel or a re-ranked neighbour put a file of less coverage first, and a task whose
  // head was as sure as before packed nothing). The first three packed more on unrelated tasks too.
  const definers = new Map<string, number>();
  for (const f of features) for (const symbol of f.defines) definers.set(symbol, (definers.get(symbol) ?? 0) + 1);
  const confidence = Math.max(...order.slice(0, HEAD).map((i) => confidenceIn(features[i]!, definers)));
  const rankOf = new Array<number>(raws.length);
  order.forEach((i, rank) => (rankOf[i] = rank));
  return raws.map((raw, i) => {
    const scale = rankOf[i]! < MAX_NEEDED ? confidence : Math.min(confidence, 0.69);
    return roundTo(scale * Math.pow(Math.max(raw, 0) / top, 0.25), 4);
  });
}
