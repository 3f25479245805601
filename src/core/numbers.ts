/** Rounds to `digits` decimals: scores and weights are printed and keyed without float noise. */
export function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/**
 * A relevance as the result shows it: two decimals, cut rather than rounded, so a file shown at
 * the threshold (0.70) reached it: 0.6996 rounded to 0.70, was left unpacked at a threshold of
 * 0.7, and was shown as the best candidate at 0.70. (The epsilon absorbs float noise: 0.29 * 100
 * is 28.999….)
 */
export function shownScore(relevance: number): number {
  return Math.floor(relevance * 100 + 1e-9) / 100;
}

/**
 * A number as a person writes one on a command line or in the environment: decimal, with an
 * optional sign, fraction and exponent; NaN for anything else. `Number` would also read
 * `0x10`, `0b11` and `0o17`, and `''` as 0.
 */
export function parseDecimal(text: string): number {
  return /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i.test(text) ? Number(text) : Number.NaN;
}
