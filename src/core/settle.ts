/**
 * A modification this close to the moment a stat was taken may hide a second write within the
 * same clock tick (git's "racy" files): a stamp, an index entry or a kept result resting on such a
 * stat is not trusted, and the file is looked at again next time.
 */
export const SETTLE_MS = 2000;

/** Whether a file last modified at `mtimeMs` had settled at `at` (a NaN time, a file gone: never). */
export function isSettledAt(mtimeMs: number, at: number): boolean {
  return mtimeMs < at - SETTLE_MS;
}
