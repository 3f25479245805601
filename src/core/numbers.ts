/** Rounds to `digits` decimals: scores and weights are printed and keyed without float noise. */
export function roundTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
