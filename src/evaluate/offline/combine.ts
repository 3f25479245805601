import type { Features } from './features.js';
import { KIND_FACTOR } from './features.js';

/**
 * Weights of the anchors, in the units of one well-matched rare term (weight 1 × idf ≈ 6 × tf
 * saturation ≈ 1.5). A file the task names by path, or that defines a symbol the task names,
 * should beat a file that merely repeats the task's words.
 */
export const ANCHOR = {
  mention: 16,
  definition: 9,
  literal: 9,
  /** Share of a strong file's score given to the files it imports. */
  neighbour: 0.06,
  /** What a copy of another candidate keeps of its score (see copies.ts): the original says it all. */
  copy: 0.3,
} as const;

/** The raw score: lexical evidence plus anchors, demoted by file kind (a named path is exempt). */
export function combineFeatures(f: Features, symbolWeight: (symbol: string) => number): number {
  const definitions = f.defines
    .map(symbolWeight)
    .sort((a, b) => b - a)
    .slice(0, 3)
    .reduce((sum, w, i) => sum + w / (i + 1), 0);
  const evidence = f.lexical + ANCHOR.definition * definitions + ANCHOR.literal * Math.min(f.literal, 2);
  return evidence * KIND_FACTOR[f.kind] + ANCHOR.mention * f.mention;
}

/** Whether the file holds evidence beyond shared words: the things a reader would call proof. */
export function isAnchored(f: Features): boolean {
  return f.mention > 0 || f.defines.length > 0 || f.literal > 0;
}

/**
 * Raw scores → 0–1 relevance. The best file's relevance says how sure the evidence is (anchored:
 * high; words only: by how much of the task it covers); the others follow by their ratio to it,
 * so "≥ 0.7" picks the files close to the best, and nothing when the best is weak.
 */
export function calibrate(raws: number[], features: Features[]): number[] {
  let top = 0;
  let topIndex = -1;
  raws.forEach((r, i) => {
    if (r > top) {
      top = r;
      topIndex = i;
    }
  });
  if (topIndex < 0) return raws.map(() => 0);
  const best = features[topIndex]!;
  const confidence = isAnchored(best) && KIND_FACTOR[best.kind] >= 0.45 ? 0.95 : Math.min(0.9, 0.3 + 0.9 * best.coverage);
  return raws.map((raw, i) => {
    const ratio = raw / top;
    const own = features[i]!;
    // A file with no anchor and little coverage cannot be "needed" on the strength of others.
    const ceiling = isAnchored(own) ? 1 : Math.min(1, 0.45 + 1.1 * own.coverage);
    return round(Math.min(ceiling, confidence * Math.pow(ratio, 1.5)));
  });
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
