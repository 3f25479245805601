import type { Candidate } from '../../core/types.js';
import { own } from '../../core/records.js';

/** How close two files' sizes and matched-term counts must be to count as one file twice. */
const SAME_SIZE = 0.97;
const SAME_TERMS = 0.9;

/**
 * Candidates that are copies of another candidate: repositories carry mirrored trees of their
 * source (a Deno build, a checked-in bundle, `index.d.cts` beside `index.d.ts`). A copy ties with
 * its original on every signal and, ties going by path, can take its place at the top; the
 * original is what a fix edits. Two files are copies when they share a stem (basename without its
 * last extension) and their sizes and counts of the task's terms are nearly equal (only the
 * task's: later cycles search borrowed terms in some files and not in others). The original is the one
 * under a `src` directory, else the shorter path.
 */
export function findCopies(candidates: readonly Candidate[], terms: readonly string[]): Set<number> {
  const byStem = new Map<string, number[]>();
  candidates.forEach((c, i) => {
    const stem = stemOf(c.path);
    byStem.set(stem, [...(byStem.get(stem) ?? []), i]);
  });
  const copies = new Set<number>();
  for (const group of byStem.values()) {
    if (group.length < 2) continue;
    const ordered = [...group].sort((a, b) => originalFirst(candidates[a]!.path, candidates[b]!.path));
    const kept: number[] = [];
    for (const i of ordered) {
      if (kept.some((k) => areCopies(candidates[k]!, candidates[i]!, terms))) copies.add(i);
      else kept.push(i);
    }
  }
  return copies;
}

function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function originalFirst(a: string, b: string): number {
  const srcA = /(?:^|\/)src\//.test(a) ? 0 : 1;
  const srcB = /(?:^|\/)src\//.test(b) ? 0 : 1;
  return srcA - srcB || a.length - b.length || (a < b ? -1 : 1);
}

function areCopies(a: Candidate, b: Candidate, terms: readonly string[]): boolean {
  const sizes = Math.min(a.size, b.size) / Math.max(a.size, b.size, 1);
  if (sizes < SAME_SIZE) return false;
  let shared = 0;
  let total = 0;
  for (const term of terms) {
    const x = own(a.termFreq, term) ?? 0;
    const y = own(b.termFreq, term) ?? 0;
    shared += Math.min(x, y);
    total += Math.max(x, y);
  }
  return total > 0 && shared / total >= SAME_TERMS;
}
