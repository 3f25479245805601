/**
 * What counts as evidence. ripgrep searches substrings (`cat` also finds `concatenate`); here
 * each identifier it found is cut into the same terms as the query, and one that holds no query
 * term, literal or symbol is dropped as a false positive.
 */
import type { Hit, Query } from '../core/types.js';
import { identifiersOf, isPairTerm, termsWithPairs, tokenize } from '../core/text.js';

/** Occurrences counted per keyword per file, so one repetitive file cannot dominate. */
export const MAX_TERM_FREQ = 50;
/** Evidence lines kept per file. */
export const MAX_HITS_PER_FILE = 30;
/** Characters of a line kept as evidence. */
export const MAX_HIT_TEXT = 300;

export interface LineTerms {
  keywords: Map<string, number>;
  literals: string[];
  symbols: string[];
}

export type LineMatcher = (text: string) => LineTerms | undefined;

type QueryTerms = Pick<Query, 'keywords' | 'literals' | 'symbols'>;

/** A function giving the query terms a text (a line, an identifier) holds, or undefined when it holds none. */
export function createLineMatcher(query: QueryTerms): LineMatcher {
  const wanted = new Set(query.keywords);
  const pairs = query.keywords.some(isPairTerm);
  const literals = query.literals.filter((l) => l !== '').map((l) => ({ literal: l, lower: l.toLowerCase() }));
  const symbols = query.symbols.map((symbol) => ({ symbol, plain: PLAIN_IDENTIFIER.test(symbol) }));
  // Plain loops, not `filter`/`map` chains: this runs for every identifier a scan prints, and V8
  // (Node 20) could fall into a deoptimization loop on the chains' arrays, hundreds of bailouts
  // in one run.
  return (text) => {
    const keywords = new Map<string, number>();
    for (const token of pairs ? termsWithPairs(text) : tokenize(text)) if (wanted.has(token)) keywords.set(token, (keywords.get(token) ?? 0) + 1);
    const foundLiterals: string[] = [];
    if (literals.length > 0) {
      const lower = text.toLowerCase();
      for (const l of literals) if (lower.includes(l.lower)) foundLiterals.push(l.literal);
    }
    const foundSymbols: string[] = [];
    for (const s of symbols) if (hasSymbol(text, s.symbol, s.plain)) foundSymbols.push(s.symbol);
    if (keywords.size === 0 && foundLiterals.length === 0 && foundSymbols.length === 0) return undefined;
    return { keywords, literals: foundLiterals, symbols: foundSymbols };
  };
}

const PLAIN_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A plain identifier must appear whole and in its case; a dotted one (`User.save`) as written. */
function hasSymbol(text: string, symbol: string, plain: boolean): boolean {
  if (plain) return text.includes(symbol) && identifiersOf(text).includes(symbol);
  return symbol !== '' && text.includes(symbol);
}

/** The most telling lines (most distinct terms, then earliest), returned in line order. */
export function selectHits<T extends Pick<Hit, 'line' | 'terms'>>(hits: readonly T[], max = MAX_HITS_PER_FILE): T[] {
  const best = [...hits].sort((a, b) => b.terms.length - a.terms.length || a.line - b.line).slice(0, max);
  return best.sort((a, b) => a.line - b.line);
}
