/**
 * What the scans of one search scope found, term by term, for the searcher's lifetime (one run).
 * A later cycle's query mostly repeats the earlier terms; only the terms never scanned are
 * scanned (or read back from the previous run's index), so a cycle costs one repository pass
 * for its new terms at most.
 */
import type { FileTally, ScanTerms } from './scan.js';

/** `k:` keyword, `l:` literal (lowercased: searched case-insensitively), `s:` symbol. */
export type TermKey = string;

export const keyOfKeyword = (k: string): TermKey => `k:${k}`;
export const keyOfLiteral = (l: string): TermKey => `l:${l.toLowerCase()}`;
export const keyOfSymbol = (s: string): TermKey => `s:${s}`;

const NONE: Set<string> = new Set();

/** Files holding a term: the keyword's count, or 1 for a literal or symbol found. */
export type Postings = Map<string, number>;

/** Where a term's postings come from when it is new to this run. */
export interface TermSources {
  /** Postings read back from an earlier run (already brought up to date), or undefined for each term that must be scanned. */
  restore?: (keys: TermKey[]) => Promise<Map<TermKey, Postings>>;
  /**
   * Scans the repository for `fresh`, calling `record` per file holding any of them; `reset`
   * forgets what was recorded (a scan stopped and run again). Returns the terms it left out
   * (`term-budget.ts`), each with the number of files estimated to hold it.
   */
  scan: (fresh: ScanTerms, record: (path: string, tally: FileTally) => void, reset: () => void) => Promise<ReadonlyArray<{ key: TermKey; docFreq: number }> | void>;
}

export class TermIndex {
  private readonly postings = new Map<TermKey, Postings>();
  /** Scans under way, so two concurrent dispatches never scan (and count) a term twice. */
  private readonly pending = new Map<TermKey, Promise<void>>();
  /** Terms a scan left out as too common to count (`term-budget.ts`): their estimated document frequency. */
  private readonly leftOut = new Map<TermKey, number>();

  /**
   * Makes sure every term of `terms` is known: restored where an earlier run's index has it,
   * scanned otherwise, once; work already under way is awaited. A failure leaves its terms
   * unknown, so the next call tries again.
   */
  async ensure(terms: ScanTerms, sources: TermSources): Promise<void> {
    const wanted = termsOf(terms);
    const fresh = wanted.filter(([key]) => !this.postings.has(key) && !this.pending.has(key) && !this.leftOut.has(key));
    const waits = wanted.flatMap(([key]) => this.pending.get(key) ?? []);
    if (fresh.length > 0) {
      const keys = fresh.map(([key]) => key);
      const run = this.load(fresh, sources);
      for (const key of keys) this.pending.set(key, run);
      waits.push(run.finally(() => keys.forEach((key) => this.pending.delete(key))));
    }
    await Promise.all(waits);
  }

  /**
   * The files holding any of `terms`, with what each holds of them (literals as `terms` writes
   * them). Most files hold no literal or symbol: they share one empty set, never written to.
   */
  evidenceFor(terms: ScanTerms): Map<string, FileTally> {
    const out = new Map<string, FileTally>();
    const tallyOf = (path: string): FileTally => {
      let tally = out.get(path);
      if (!tally) out.set(path, (tally = { termFreq: {}, literals: NONE, symbols: NONE }));
      return tally;
    };
    const add = (set: Set<string>, value: string): Set<string> => (set === NONE ? new Set([value]) : set.add(value));
    for (const keyword of new Set(terms.keywords)) for (const [path, tf] of this.postings.get(keyOfKeyword(keyword)) ?? []) tallyOf(path).termFreq[keyword] = tf;
    for (const literal of terms.literals) {
      for (const path of this.postings.get(keyOfLiteral(literal))?.keys() ?? []) {
        const tally = tallyOf(path);
        tally.literals = add(tally.literals, literal);
      }
    }
    for (const symbol of terms.symbols) {
      for (const path of this.postings.get(keyOfSymbol(symbol))?.keys() ?? []) {
        const tally = tallyOf(path);
        tally.symbols = add(tally.symbols, symbol);
      }
    }
    return out;
  }

  /** `terms` without those a scan left out: what was counted, and what evidence lines can show. */
  counted(terms: ScanTerms): ScanTerms {
    return this.leftOut.size === 0 ? terms : withoutKeys(terms, this.leftOut);
  }

  /** The estimated document frequency of each keyword of `keywords` a scan left out. */
  leftOutDocFreq(keywords: readonly string[]): Record<string, number> {
    const out: Record<string, number> = {};
    for (const keyword of keywords) {
      const estimate = this.leftOut.get(keyOfKeyword(keyword));
      if (estimate !== undefined) out[keyword] = estimate;
    }
    return out;
  }

  /** Every term known, with its postings (for saving the index; terms left out are not known). */
  entries(): IterableIterator<[TermKey, Postings]> {
    return this.postings.entries();
  }

  private async load(fresh: Array<[TermKey, Term]>, sources: TermSources): Promise<void> {
    const restored = sources.restore ? await sources.restore(fresh.map(([key]) => key)) : new Map<TermKey, Postings>();
    const rest = fresh.filter(([key]) => !restored.has(key));
    const found = new Map<TermKey, Postings>(rest.map(([key]) => [key, new Map()]));
    if (rest.length > 0) {
      const scanned: ScanTerms = { keywords: [], literals: [], symbols: [] };
      for (const [, term] of rest) scanned[term.kind].push(term.value);
      const reset = (): void => found.forEach((postings) => postings.clear());
      const left = await sources.scan(
        scanned,
        (path, tally) => {
          for (const [keyword, tf] of Object.entries(tally.termFreq)) found.get(keyOfKeyword(keyword))?.set(path, tf);
          for (const literal of tally.literals) found.get(keyOfLiteral(literal))?.set(path, 1);
          for (const symbol of tally.symbols) found.get(keyOfSymbol(symbol))?.set(path, 1);
        },
        reset,
      );
      for (const { key, docFreq } of left ?? []) {
        found.delete(key);
        this.leftOut.set(key, docFreq);
      }
    }
    for (const [key, postings] of [...restored, ...found]) this.postings.set(key, postings);
  }
}

interface Term {
  kind: keyof ScanTerms;
  value: string;
}

/** `terms` without those whose key is in `keys`, each kind in its order. */
export function withoutKeys(terms: ScanTerms, keys: { has(key: TermKey): boolean }): ScanTerms {
  return {
    keywords: terms.keywords.filter((k) => !keys.has(keyOfKeyword(k))),
    literals: terms.literals.filter((l) => !keys.has(keyOfLiteral(l))),
    symbols: terms.symbols.filter((s) => !keys.has(keyOfSymbol(s))),
  };
}

/** The distinct terms of a query, by key (literals differing only in case are one term). */
export function termsOf(terms: ScanTerms): Array<[TermKey, Term]> {
  const out = new Map<TermKey, Term>();
  for (const value of terms.keywords) if (!out.has(keyOfKeyword(value))) out.set(keyOfKeyword(value), { kind: 'keywords', value });
  for (const value of terms.literals) if (!out.has(keyOfLiteral(value))) out.set(keyOfLiteral(value), { kind: 'literals', value });
  for (const value of terms.symbols) if (!out.has(keyOfSymbol(value))) out.set(keyOfSymbol(value), { kind: 'symbols', value });
  return [...out];
}
