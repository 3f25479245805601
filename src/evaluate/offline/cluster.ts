import type { Score } from '../../core/types.js';

/**
 * The cluster hypothesis on the repository tree: the files a task needs sit near each other. A
 * candidate in or near the directories of the files the previous cycle found strong is likelier
 * needed than an equal lexical match far from them (a root config file, an issue template, a
 * vendored header, a test script). The previous cycle's verdicts are what make this possible, so
 * it is the loop's own evidence: the first cycle has none.
 */
export const CLUSTER = {
  /** How many of the previous cycle's best files vote. */
  strongFiles: 10,
  /** A candidate whose neighbourhood holds all the votes gains this share of its raw score. */
  weight: 0.5,
} as const;

/**
 * Per path, in [0, 1]: how close it sits to the previous cycle's strongest files, each weighted
 * by its relevance (the path itself does not vote for itself). Closeness is the share of leading
 * directories two paths have in common (`src/a/x.ts` and `src/a/y.ts`: 1; `src/a/x.ts` and
 * `src/b/y.ts`: ½; anything and a root file: 0, unless both sit at the root).
 */
export function nearStrongFiles(paths: readonly string[], previous: readonly Score[]): number[] {
  const strong = [...previous]
    .filter((s) => s.relevance > 0)
    .sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1))
    .slice(0, CLUSTER.strongFiles)
    .map((s) => ({ dirs: dirsOf(s.path), path: s.path, weight: s.relevance }));
  const total = strong.reduce((sum, s) => sum + s.weight, 0);
  if (total <= 0) return paths.map(() => 0);
  return paths.map((path) => {
    const dirs = dirsOf(path);
    let near = 0;
    for (const s of strong) if (s.path !== path) near += s.weight * closeness(dirs, s.dirs);
    return near / total;
  });
}

function dirsOf(path: string): string[] {
  return path.split('/').slice(0, -1);
}

function closeness(a: readonly string[], b: readonly string[]): number {
  const depth = Math.max(a.length, b.length);
  if (depth === 0) return 1;
  let shared = 0;
  while (shared < Math.min(a.length, b.length) && a[shared] === b[shared]) shared++;
  return shared / depth;
}
