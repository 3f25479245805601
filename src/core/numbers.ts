/** Rounds to `digits` decimals: scores and weights are printed and keyed without float noise. */
export function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/**
 * A number as a person writes one on a command line or in the environment: decimal, with an
 * optional sign, fraction and exponent; NaN for anything else. `Number` would also read
 * `0x10`, `0b11` and `0o17`, and `''` as 0.
 */
export function parseDecimal(text: string): number {
  return /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i.test(text) ? Number(text) : Number.NaN;
}
