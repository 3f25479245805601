import type { Candidate, Hit } from '../core/types.js';
import { own } from '../core/records.js';

const MAX_HITS = 40;

/**
 * Everything found so far, merged across cycles. Each dispatch searches the plan's terms again,
 * so a file's newer evidence is a superset of the older: counts take the larger, lists the union.
 */
export function mergeCandidates(pool: Map<string, Candidate>, found: Candidate[]): number {
  let added = 0;
  for (const candidate of found) {
    const old = pool.get(candidate.path);
    if (!old) {
      pool.set(candidate.path, candidate);
      added++;
      continue;
    }
    const termFreq = { ...old.termFreq };
    for (const [term, n] of Object.entries(candidate.termFreq)) termFreq[term] = Math.max(own(termFreq, term) ?? 0, n);
    pool.set(candidate.path, {
      path: candidate.path,
      size: candidate.size,
      termFreq,
      literals: union(old.literals, candidate.literals),
      symbols: union(old.symbols, candidate.symbols),
      mentions: union(old.mentions, candidate.mentions),
      hits: mergeHits(old.hits, candidate.hits),
      sources: union(old.sources, candidate.sources),
      ...(old.generated || candidate.generated ? { generated: true } : {}),
      ...(old.commits ?? candidate.commits ? { commits: old.commits ?? candidate.commits } : {}),
    });
  }
  return added;
}

function union<T>(a: T[], b: T[]): T[] {
  return [...new Set([...a, ...b])];
}

function mergeHits(a: Hit[], b: Hit[]): Hit[] {
  const byLine = new Map<number, Hit>();
  for (const hit of [...a, ...b]) {
    const old = byLine.get(hit.line);
    byLine.set(hit.line, old ? { ...hit, terms: union(old.terms, hit.terms) } : hit);
  }
  const merged = [...byLine.values()];
  if (merged.length > MAX_HITS) merged.sort((x, y) => y.terms.length - x.terms.length || x.line - y.line).length = MAX_HITS;
  return merged.sort((x, y) => x.line - y.line);
}

/** Pool in a stable order (by path), so evaluation never depends on discovery order. */
export function poolList(pool: Map<string, Candidate>): Candidate[] {
  return [...pool.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
