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
  return (text) => {
    const keywords = new Map<string, number>();
    for (const token of pairs ? termsWithPairs(text) : tokenize(text)) if (wanted.has(token)) keywords.set(token, (keywords.get(token) ?? 0) + 1);
    const lower = literals.length > 0 ? text.toLowerCase() : '';
    const foundLiterals = literals.filter((l) => lower.includes(l.lower)).map((l) => l.literal);
    const foundSymbols = symbols.length > 0 ? symbols.filter((s) => hasSymbol(text, s.symbol, s.plain)).map((s) => s.symbol) : [];
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
