import type { Tokenizer } from '../core/deps.js';

/** gpt-tokenizer's `countTokens`, whichever build (ES module or CommonJS) it came from. */
export type CountTokens = (text: string, options: { disallowedSpecial: Set<string> }) => number;

/** Special-token text (`<|endoftext|>`) in a file is counted as plain text instead of throwing. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** The tokenizer over gpt-tokenizer's count: the empty text is 0 tokens. */
export function tokenizerOf(countTokens: CountTokens): Tokenizer {
  return { count: (text) => countInPieces(text, (piece) => (piece.length === 0 ? 0 : countTokens(piece, AS_TEXT))) };
}

/** The longest run of one kind of character counted whole. */
const MAX_RUN = 1000;

/**
 * Runs that o200k's pre-tokenizer leaves as one piece (letters, punctuation, whitespace), longer
 * than `MAX_RUN`: gpt-tokenizer merges a piece in time quadratic in its length (300 kB of `a`
 * in a string literal took 50 s to count, a 900 kB run of spaces minutes).
 */
const LONG_RUN = new RegExp(`[\\p{L}\\p{M}]{${MAX_RUN + 1},}|[^\\s\\p{L}\\p{M}\\p{N}]{${MAX_RUN + 1},}|\\s{${MAX_RUN + 1},}`, 'gu');

/**
 * `count(text)`, in linear time: a text without such a run is counted whole (the exact count);
 * a run is cut into `MAX_RUN`-character pieces counted one by one, the text around it whole (a
 * token or so more per piece than the whole run would give).
 */
export function countInPieces(text: string, count: (piece: string) => number): number {
  const runs = [...text.matchAll(LONG_RUN)];
  if (runs.length === 0) return count(text);
  let total = 0;
  let from = 0;
  for (const run of runs) {
    if (run.index > from) total += count(text.slice(from, run.index));
    for (let at = 0; at < run[0].length; at += MAX_RUN) total += count(run[0].slice(at, at + MAX_RUN));
    from = run.index + run[0].length;
  }
  if (from < text.length) total += count(text.slice(from));
  return total;
}
