/**
 * Counts query terms across the whole repository in one ripgrep pass without shipping matched
 * lines to JavaScript: each pattern matches the whole identifier around a term (`-o`), so rg
 * prints only those identifiers, grouped per file, and each distinct identifier is cut into
 * terms once. For the candidates, the same scan also says which terms each line holds, so the
 * evidence lines can be chosen before any line is read (`hits.ts`).
 */
import { searchPrefix } from '../core/text.js';
import { toPosix } from '../core/files.js';
import type { Logger } from '../core/log.js';
import type { Query } from '../core/types.js';
import { createLineMatcher, MAX_TERM_FREQ, type LineTerms } from './collect.js';
import { commonArgs, pathArgs, runRg, type RgFilter } from './rg-process.js';
import { own } from '../core/records.js';

export type ScanTerms = Pick<Query, 'keywords' | 'literals' | 'symbols'>;

/** What one file holds of the scanned terms. */
export interface FileTally {
  /** Occurrences per keyword, capped at `MAX_TERM_FREQ`. */
  termFreq: Record<string, number>;
  /** Literals found, as the query wrote them. */
  literals: Set<string>;
  symbols: Set<string>;
  /** With `ScanRun.lines`: the terms of each matched line (keywords in the order they appear, then literals, then symbols). */
  lines?: Map<number, string[]>;
}

export interface ScanRun extends RgFilter {
  rgPath: string;
  root: string;
  /** Root-relative directories or files to search; '' is the root. */
  paths: readonly string[];
  terms: ScanTerms;
  /** Also record the terms of each line (for candidates: the output grows with the matches). */
  lines?: boolean;
  logger: Logger;
  signal?: AbortSignal | undefined;
}

/**
 * Matched lines read per file. It must cover a whole hand-written file: the file a task is about
 * is often the biggest one (a 5,000-line `types.ts`), where common terms fill the first few
 * hundred lines and a rare term further down would never be counted.
 */
export const MAX_LINES_PER_FILE = 10_000;

/** Characters of an identifier, as `tokenize` reads them (plus leading digits, cut off there). */
const IDENT = '[A-Za-z0-9_$]*';

/** The metacharacters Rust's `regex::escape` escapes. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$#&\-~]/g, '\\$&');
}

/**
 * One regex a term, each widened to the identifiers around it so `-o` prints whole identifiers:
 * keywords by their search prefix, case-insensitively; literals verbatim, case-insensitively;
 * symbols in their case. Literals and dotted symbols come first: at one position rg takes the
 * first alternative that matches, and they may span several identifiers.
 */
export function scanPatterns(terms: ScanTerms): string[] {
  const spans = [...terms.literals.map((l) => `(?i:${escapeRegex(l)})`), ...terms.symbols.filter((s) => !isIdentifier(s)).map(escapeRegex)];
  const words = [...new Set(terms.keywords.map(searchPrefix))].map((k) => `(?i:${escapeRegex(k)})`);
  const names = terms.symbols.filter(isIdentifier).map(escapeRegex);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const core of [...spans, ...words, ...names]) {
    if (core === '' || core === '(?i:)' || seen.has(core)) continue;
    seen.add(core);
    out.push(`${IDENT}${core}${IDENT}`);
  }
  return out;
}

function isIdentifier(symbol: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(symbol);
}

/**
 * Runs the scan and calls `onFile` once per text file holding a term. A file rg finds binary
 * part-way (a NUL after some matches) is left out, as the line search leaves it out.
 */
export async function scanTerms(run: ScanRun, onFile: (path: string, tally: FileTally) => void): Promise<void> {
  const patterns = scanPatterns(run.terms);
  if (run.paths.length === 0 || patterns.length === 0) return;
  const args = [...commonArgs(run), '--only-matching', '--line-number', '--with-filename', '--heading', '--null', '--max-count', String(MAX_LINES_PER_FILE), '-f', '-', ...pathArgs(run.paths)];
  const reader = new ScanReader(createFragmentMatcher(run.terms), run.terms, run.lines ?? false, onFile);
  await runRg({ ...run, args, stdin: `${patterns.join('\n')}\n` }, (line) => reader.read(line));
  reader.end();
}

/** `createLineMatcher` over one identifier (or literal span) at a time, remembered: identifiers repeat. */
function createFragmentMatcher(terms: ScanTerms): (fragment: string) => LineTerms | undefined {
  const match = createLineMatcher(terms);
  const memo = new Map<string, LineTerms | null>();
  return (fragment) => {
    let found = memo.get(fragment);
    if (found === undefined) {
      // bounded: a repository of generated names would otherwise grow it without end
      if (memo.size >= 200_000) memo.clear();
      found = match(fragment) ?? null;
      memo.set(fragment, found);
    }
    return found ?? undefined;
  };
}

/**
 * Reads `--only-matching --line-number --heading --null` output: `path\0` opens a file (its
 * first match follows on the same line), `N:identifier` lines follow, a blank line closes it; a
 * line that is neither is rg's warning that the file turned out binary.
 */
class ScanReader {
  private path: string | undefined;
  private tally: FileTally | undefined;
  private binary = false;
  /** With `lines`: the line being read, and its terms so far. */
  private line = 0;
  private found: { keywords: Set<string>; literals: Set<string>; symbols: Set<string> } | undefined;

  constructor(
    private readonly match: (fragment: string) => LineTerms | undefined,
    private readonly terms: ScanTerms,
    private readonly lines: boolean,
    private readonly onFile: (path: string, tally: FileTally) => void,
  ) {}

  read(line: string): void {
    const nul = line.indexOf('\0');
    if (nul >= 0) {
      this.end();
      this.path = toPosix(line.slice(0, nul));
      this.readMatch(line.slice(nul + 1));
    } else if (line === '') this.end();
    else if (!this.readMatch(line) && this.path !== undefined && line.includes('binary file')) this.binary = true;
  }

  end(): void {
    this.endLine();
    if (this.path !== undefined && this.tally && !this.binary) this.onFile(this.path, this.tally);
    this.path = undefined;
    this.tally = undefined;
    this.binary = false;
  }

  /** False when the line is not `N:text`. */
  private readMatch(text: string): boolean {
    const colon = text.indexOf(':');
    if (colon <= 0 || !/^\d+$/.test(text.slice(0, colon))) return false;
    const terms = this.match(text.slice(colon + 1));
    if (!terms || this.path === undefined) return true;
    const tally = (this.tally ??= { termFreq: {}, literals: new Set(), symbols: new Set() });
    for (const [keyword, count] of terms.keywords) tally.termFreq[keyword] = Math.min(MAX_TERM_FREQ, (own(tally.termFreq, keyword) ?? 0) + count);
    for (const literal of terms.literals) tally.literals.add(literal);
    for (const symbol of terms.symbols) tally.symbols.add(symbol);
    if (this.lines) {
      const line = Number(text.slice(0, colon));
      if (line !== this.line) this.endLine();
      this.line = line;
      const found = (this.found ??= { keywords: new Set(), literals: new Set(), symbols: new Set() });
      for (const keyword of terms.keywords.keys()) found.keywords.add(keyword);
      for (const literal of terms.literals) found.literals.add(literal);
      for (const symbol of terms.symbols) found.symbols.add(symbol);
    }
    return true;
  }

  private endLine(): void {
    if (this.found && this.tally) {
      const { keywords, literals, symbols } = this.found;
      const terms = [...keywords, ...this.terms.literals.filter((l) => literals.has(l)), ...this.terms.symbols.filter((s) => symbols.has(s))];
      (this.tally.lines ??= new Map()).set(this.line, [...new Set(terms)]);
    }
    this.found = undefined;
    this.line = 0;
  }
}
