/**
 * Turns matched lines into per-file evidence. ripgrep searches substrings (`cat` also finds
 * `concatenate`); here each line is cut into the same terms as the query, and a line that
 * holds no query term, literal or symbol is dropped as a false positive.
 */
import type { Hit, Query } from '../core/types.js';
import { identifiersOf, tokenize } from '../core/text.js';
import type { RipgrepMatch } from './ripgrep.js';
import { own } from '../core/records.js';

/** Occurrences counted per keyword per file, so one repetitive file cannot dominate. */
export const MAX_TERM_FREQ = 50;
/** Evidence lines kept per file. */
export const MAX_HITS_PER_FILE = 30;
const MAX_HIT_TEXT = 300;

export interface FileEvidence {
  termFreq: Record<string, number>;
  literals: Set<string>;
  symbols: Set<string>;
  /** Every matched line, in arrival order; `selectHits` picks the ones to keep. */
  hits: Hit[];
}

export interface LineTerms {
  keywords: Map<string, number>;
  literals: string[];
  symbols: string[];
}

export type LineMatcher = (text: string) => LineTerms | undefined;

type QueryTerms = Pick<Query, 'keywords' | 'literals' | 'symbols'>;

/** A function giving the query terms a line holds, or undefined when it holds none. */
export function createLineMatcher(query: QueryTerms): LineMatcher {
  const wanted = new Set(query.keywords);
  const literals = query.literals.filter((l) => l !== '').map((l) => ({ literal: l, lower: l.toLowerCase() }));
  return (text) => {
    const keywords = new Map<string, number>();
    for (const token of tokenize(text)) if (wanted.has(token)) keywords.set(token, (keywords.get(token) ?? 0) + 1);
    const lower = literals.length > 0 ? text.toLowerCase() : '';
    const foundLiterals = literals.filter((l) => lower.includes(l.lower)).map((l) => l.literal);
    const identifiers = query.symbols.length > 0 ? new Set(identifiersOf(text)) : new Set<string>();
    const symbols = query.symbols.filter((s) => hasSymbol(text, identifiers, s));
    if (keywords.size === 0 && foundLiterals.length === 0 && symbols.length === 0) return undefined;
    return { keywords, literals: foundLiterals, symbols };
  };
}

/** A plain identifier must appear whole and in its case; a dotted one (`User.save`) as written. */
function hasSymbol(text: string, identifiers: Set<string>, symbol: string): boolean {
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(symbol)) return identifiers.has(symbol);
  return symbol !== '' && text.includes(symbol);
}

export class EvidenceCollector {
  private readonly byFile = new Map<string, FileEvidence>();
  /** `path:line` already counted: runs split by pattern can report the same line twice. */
  private readonly seen = new Set<string>();

  private readonly matchLine: LineMatcher;

  constructor(query: QueryTerms) {
    this.matchLine = createLineMatcher(query);
  }

  add(match: RipgrepMatch): void {
    const key = `${match.path}:${match.line}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const terms = this.matchLine(match.text);
    if (!terms) return;
    const evidence = this.evidenceOf(match.path);
    for (const [keyword, count] of terms.keywords) {
      evidence.termFreq[keyword] = Math.min(MAX_TERM_FREQ, (own(evidence.termFreq, keyword) ?? 0) + count);
    }
    for (const literal of terms.literals) evidence.literals.add(literal);
    for (const symbol of terms.symbols) evidence.symbols.add(symbol);
    const hitTerms = [...new Set([...terms.keywords.keys(), ...terms.literals, ...terms.symbols])];
    evidence.hits.push({ line: match.line, text: match.text.trimEnd().slice(0, MAX_HIT_TEXT).trimEnd(), terms: hitTerms });
  }

  /** Evidence per root-relative path. */
  files(): ReadonlyMap<string, FileEvidence> {
    return this.byFile;
  }

  private evidenceOf(path: string): FileEvidence {
    let evidence = this.byFile.get(path);
    if (!evidence) {
      evidence = { termFreq: {}, literals: new Set(), symbols: new Set(), hits: [] };
      this.byFile.set(path, evidence);
    }
    return evidence;
  }
}

/** The most telling lines (most distinct terms, then earliest), returned in line order. */
export function selectHits(hits: readonly Hit[], max = MAX_HITS_PER_FILE): Hit[] {
  const best = [...hits].sort((a, b) => b.terms.length - a.terms.length || a.line - b.line).slice(0, max);
  return best.sort((a, b) => a.line - b.line);
}
