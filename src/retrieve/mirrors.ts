/**
 * Near-copies of a file (a `deno/lib/` or `deno_dist/` mirror of `src/`, a vendored copy) match
 * a task exactly as well as their original, so they tie with it and take its place in the
 * ranking half the time. Only one of each set goes on to the evaluator.
 */
import { basenameOf } from '../core/files.js';
import type { Candidate } from '../core/types.js';

/** Fewer matched lines than this and two files are too little alike to call copies. */
const MIN_SHARED_HITS = 3;
/** Share of matched lines two copies have in common; a mirror differs only in import lines. */
const MIN_OVERLAP = 0.8;
/** Largest size difference between copies, as a share of the larger size. */
const MAX_SIZE_GAP = 0.05;

/**
 * Candidates with their near-copies left out: same file name, about the same size, and mostly
 * the same matched lines. The copy kept is the one with the shortest path: mirrors are written
 * into deeper or longer-named output folders, next to the source they copy.
 */
export function dropMirrors(candidates: Candidate[]): Candidate[] {
  const byName = new Map<string, Candidate[]>();
  for (const c of candidates) {
    if (c.hits.length < MIN_SHARED_HITS) continue;
    const name = basenameOf(c.path);
    byName.set(name, [...(byName.get(name) ?? []), c]);
  }
  const dropped = new Set<string>();
  for (const group of byName.values()) {
    if (group.length < 2) continue;
    const ordered = [...group].sort((a, b) => a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
    ordered.forEach((original, i) => {
      if (dropped.has(original.path)) return;
      for (const other of ordered.slice(i + 1)) if (!dropped.has(other.path) && isMirror(original, other)) dropped.add(other.path);
    });
  }
  return candidates.filter((c) => !dropped.has(c.path));
}

function isMirror(a: Candidate, b: Candidate): boolean {
  if (Math.abs(a.size - b.size) > MAX_SIZE_GAP * Math.max(a.size, b.size)) return false;
  const linesA = new Set(a.hits.map((h) => h.text.trim()));
  const linesB = new Set(b.hits.map((h) => h.text.trim()));
  let shared = 0;
  for (const line of linesA) if (linesB.has(line)) shared++;
  return shared >= MIN_SHARED_HITS && shared >= MIN_OVERLAP * Math.max(linesA.size, linesB.size);
}
