/**
 * What the scans of one search scope found, per term and file, for the searcher's lifetime (one
 * run). A later cycle's query mostly repeats the earlier terms; only the terms never scanned
 * are scanned, so a cycle costs one repository pass for its new terms, not for all of them.
 */
import type { FileTally, ScanTerms } from './scan.js';

type TermKey = string;

const keyOfKeyword = (k: string): TermKey => `k:${k}`;
const keyOfLiteral = (l: string): TermKey => `l:${l.toLowerCase()}`;
const keyOfSymbol = (s: string): TermKey => `s:${s}`;

interface Stored {
  termFreq: Map<string, number>;
  /** Lowercased: a literal is searched case-insensitively. */
  literals: Set<string>;
  symbols: Set<string>;
}

export class TermIndex {
  private readonly scanned = new Set<TermKey>();
  /** Scans under way, so two concurrent dispatches never scan (and count) a term twice. */
  private readonly pending = new Map<TermKey, Promise<void>>();
  private readonly files = new Map<string, Stored>();

  /**
   * Makes sure every term of `terms` has been scanned: `scan` runs once for the terms neither
   * scanned nor being scanned, and its tallies are recorded; scans already under way are awaited.
   * A failed scan leaves its terms unscanned, so the next call tries again.
   */
  async ensure(terms: ScanTerms, scan: (fresh: ScanTerms, record: (path: string, tally: FileTally) => void) => Promise<void>): Promise<void> {
    const fresh: ScanTerms = {
      keywords: unique(terms.keywords).filter((k) => this.isNew(keyOfKeyword(k))),
      literals: uniqueBy(terms.literals, keyOfLiteral).filter((l) => this.isNew(keyOfLiteral(l))),
      symbols: unique(terms.symbols).filter((s) => this.isNew(keyOfSymbol(s))),
    };
    const keys = keysOf(fresh);
    const waits = keysOf(terms).flatMap((k) => this.pending.get(k) ?? []);
    if (keys.length > 0) {
      const found = new Map<string, FileTally>();
      const run = scan(fresh, (path, tally) => found.set(path, tally)).then(() => {
        for (const [path, tally] of found) this.record(path, tally);
        for (const key of keys) this.scanned.add(key);
      });
      for (const key of keys) this.pending.set(key, run);
      waits.push(run.finally(() => keys.forEach((key) => this.pending.delete(key))));
    }
    await Promise.all(waits);
  }

  /** The files holding any of `terms`, with what each holds of them (literals as `terms` writes them). */
  evidenceFor(terms: ScanTerms): Map<string, FileTally> {
    const out = new Map<string, FileTally>();
    const keywords = unique(terms.keywords);
    for (const [path, stored] of this.files) {
      const tally: FileTally = { termFreq: {}, literals: new Set(), symbols: new Set() };
      let any = false;
      for (const keyword of keywords) {
        const tf = stored.termFreq.get(keyword);
        if (tf !== undefined) {
          tally.termFreq[keyword] = tf;
          any = true;
        }
      }
      for (const literal of terms.literals) if (stored.literals.has(literal.toLowerCase())) tally.literals.add(literal);
      for (const symbol of terms.symbols) if (stored.symbols.has(symbol)) tally.symbols.add(symbol);
      if (any || tally.literals.size > 0 || tally.symbols.size > 0) out.set(path, tally);
    }
    return out;
  }

  private isNew(key: TermKey): boolean {
    return !this.scanned.has(key) && !this.pending.has(key);
  }

  private record(path: string, tally: FileTally): void {
    let stored = this.files.get(path);
    if (!stored) {
      stored = { termFreq: new Map(), literals: new Set(), symbols: new Set() };
      this.files.set(path, stored);
    }
    for (const [keyword, tf] of Object.entries(tally.termFreq)) stored.termFreq.set(keyword, tf);
    for (const literal of tally.literals) stored.literals.add(literal.toLowerCase());
    for (const symbol of tally.symbols) stored.symbols.add(symbol);
  }
}

function keysOf(terms: ScanTerms): TermKey[] {
  return [...terms.keywords.map(keyOfKeyword), ...terms.literals.map(keyOfLiteral), ...terms.symbols.map(keyOfSymbol)];
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

function uniqueBy(items: readonly string[], key: (item: string) => string): string[] {
  const seen = new Map<string, string>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}
