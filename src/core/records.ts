/**
 * Reads a term-keyed record safely. Terms are arbitrary words from tasks and code, and a plain
 * object answers `constructor` (and other Object.prototype names) with a function: only own
 * properties count.
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
