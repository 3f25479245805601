import { tokenize } from '../core/text.js';
import { countTerms, readDocuments, type Document, type DocumentCache } from './documents.js';

/** The usual Okapi constants; tuning them did not help on the dev set (bench/SIGNALS.md). */
export const BM25 = { k1: 1.2, b: 0.75 } as const;

export interface RankedPath {
  path: string;
  score: number;
}

/**
 * File-level BM25 of a task over a checkout: the baseline every report compares against. The task
 * and the files go through the same code-aware `tokenize`; a file's path is part of its text.
 * Returns every file with a positive score, best first (ties by path).
 */
export async function rankBm25(task: string, root: string, cache?: DocumentCache): Promise<RankedPath[]> {
  return scoreDocuments(tokenize(task), await readDocuments(root, cache));
}

/** BM25 with Lucene's always-positive idf; a term repeated in the query counts that many times. */
export function scoreDocuments(queryTerms: readonly string[], docs: readonly Document[]): RankedPath[] {
  if (docs.length === 0) return [];
  const query = countTerms(queryTerms);
  const avgLength = docs.reduce((sum, doc) => sum + doc.length, 0) / docs.length || 1;
  const idf = new Map<string, number>();
  for (const term of query.keys()) {
    const df = docs.filter((doc) => termFrequency(doc, term) > 0).length;
    if (df > 0) idf.set(term, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5)));
  }
  const ranked: RankedPath[] = [];
  for (const doc of docs) {
    const norm = BM25.k1 * (1 - BM25.b + (BM25.b * doc.length) / avgLength);
    let score = 0;
    for (const [term, weight] of idf) {
      const tf = termFrequency(doc, term);
      if (tf > 0) score += (query.get(term) ?? 1) * weight * ((tf * (BM25.k1 + 1)) / (tf + norm));
    }
    if (score > 0) ranked.push({ path: doc.path, score });
  }
  return ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function termFrequency(doc: Document, term: string): number {
  return (doc.content.terms.get(term) ?? 0) + (doc.pathTerms.get(term) ?? 0);
}
