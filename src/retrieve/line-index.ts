/**
 * The terms of each matched line of the candidates, for the searcher's lifetime: a candidate
 * seen in an earlier cycle is scanned again only for the terms it was not scanned for.
 */
import type { ScanTerms } from './scan.js';
import { keyOfKeyword, keyOfLiteral, keyOfSymbol, type TermKey } from './term-index.js';

interface Scanned {
  keys: Set<TermKey>;
  /** Line → the terms on it as scanned (keywords in order of appearance, then literals and symbols). */
  lines: Map<number, string[]>;
}

export class LineIndex {
  private readonly files = new Map<string, Scanned>();

  /**
   * The paths lacking some of `terms`, grouped by what they lack: files seen in an earlier cycle
   * lack only the cycle's new terms, new files lack all; one scan a group.
   */
  missing(paths: readonly string[], terms: ScanTerms): Array<{ paths: string[]; terms: ScanTerms }> {
    const wanted = keyedTerms(terms);
    const groups = new Map<string, { paths: string[]; terms: ScanTerms }>();
    for (const path of paths) {
      const scanned = this.files.get(path)?.keys;
      const lacking = wanted.filter(([key]) => !scanned?.has(key));
      if (lacking.length === 0) continue;
      const id = lacking.map(([key]) => key).join('\0');
      let group = groups.get(id);
      if (!group) {
        group = { paths: [], terms: { keywords: [], literals: [], symbols: [] } };
        for (const [, kind, value] of lacking) group.terms[kind].push(value);
        groups.set(id, group);
      }
      group.paths.push(path);
    }
    return [...groups.values()];
  }

  /** Records a scan of `terms` over `paths`: `found` holds the files with matched lines. */
  record(paths: readonly string[], terms: ScanTerms, found: ReadonlyMap<string, Map<number, string[]>>): void {
    const keys = keyedTerms(terms).map(([key]) => key);
    for (const path of paths) {
      let scanned = this.files.get(path);
      if (!scanned) this.files.set(path, (scanned = { keys: new Set(), lines: new Map() }));
      for (const key of keys) scanned.keys.add(key);
      for (const [line, onLine] of found.get(path) ?? []) {
        const known = scanned.lines.get(line);
        scanned.lines.set(line, known ? [...new Set([...known, ...onLine])] : onLine);
      }
    }
  }

  /** The lines of `path` holding any of `terms`, each with those terms: keywords first, then literals, then symbols. */
  linesOf(path: string, terms: ScanTerms): Map<number, string[]> {
    const out = new Map<number, string[]>();
    const keywords = new Set(terms.keywords);
    const spans = new Set([...terms.literals, ...terms.symbols]);
    for (const [line, onLine] of this.files.get(path)?.lines ?? []) {
      const found = onLine.filter((t) => keywords.has(t));
      const present = new Set(onLine);
      if (spans.size > 0) for (const t of [...terms.literals, ...terms.symbols]) if (present.has(t) && !found.includes(t)) found.push(t);
      if (found.length > 0) out.set(line, found);
    }
    return out;
  }
}

function keyedTerms(terms: ScanTerms): Array<[TermKey, keyof ScanTerms, string]> {
  return [
    ...terms.keywords.map((v): [TermKey, keyof ScanTerms, string] => [keyOfKeyword(v), 'keywords', v]),
    ...terms.literals.map((v): [TermKey, keyof ScanTerms, string] => [keyOfLiteral(v), 'literals', v]),
    ...terms.symbols.map((v): [TermKey, keyof ScanTerms, string] => [keyOfSymbol(v), 'symbols', v]),
  ];
}
