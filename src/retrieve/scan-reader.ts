/**
 * Reads what `scanTerms` asks rg to print: whole identifiers (or literal spans) per file, each cut
 * into the scan's terms once and counted per file, and per line when asked.
 */
import { SearchError } from '../core/errors.js';
import { toPosix } from '../core/files.js';
import { createLineMatcher, MAX_TERM_FREQ } from './collect.js';
import type { MatchLog } from './match-log.js';
import type { FileTally, ScanTerms } from './scan.js';

/** The terms of one identifier (or literal span): keywords with their counts, literals, symbols. */
export interface FragmentTerms {
  keywords: Array<[string, number]>;
  literals: string[];
  symbols: string[];
  /** The fragment itself, one string for all its occurrences. */
  text: string;
  /** Its number in the scan's match log, once logged. */
  logId?: number;
}

/** The terms of one identifier (or literal span) at a time, remembered: identifiers repeat. */
export interface FragmentMatcher {
  /** The fragment's terms; with `knownOnly`, only when it was cut before (else undefined, uncut). */
  match(fragment: string, knownOnly?: boolean): FragmentTerms | undefined;
  /** Fragments cut so far (not found in the memo). */
  readonly cut: number;
}

/** `createLineMatcher` over one identifier (or literal span) at a time, remembered: identifiers repeat. */
export function createFragmentMatcher(terms: ScanTerms): FragmentMatcher {
  const matchLine = createLineMatcher(terms);
  const memo = new Map<string, FragmentTerms | null>();
  let cut = 0;
  return {
    get cut() {
      return cut;
    },
    match(fragment, knownOnly = false) {
      let found = memo.get(fragment);
      if (found === undefined) {
        if (knownOnly) return undefined;
        // bounded: a repository of generated names would otherwise grow it without end
        if (memo.size >= 100_000) memo.clear();
        const line = matchLine(fragment);
        found = line ? { keywords: [...line.keywords], literals: line.literals, symbols: line.symbols, text: fragment } : null;
        memo.set(fragment, found);
        cut++;
      }
      return found ?? undefined;
    },
  };
}

/**
 * New fragments one file may bring: past them, only fragments already cut count in that file.
 * Real files bring at most about 2,000 (a generated dictionary of 5,000 names; the three
 * evaluation sets' largest); a file of nothing but distinct names that hold a term (720 kB of
 * `verifyEmail_3_17 verifyToken_3_18 …`) brought 36,000 each, and cutting them took a minute for
 * a hundred such files.
 */
export const MAX_NEW_FRAGMENTS_PER_FILE = 5_000;

/** The longest path read in pieces (one with line breaks in it): longer, it is not rg's output. */
const MAX_PATH_CHARS = 4096;

/** The line number of an `N:text` record and where its text starts, or undefined for another line. */
function parseRecord(record: string, from: number): { line: number; text: number } | undefined {
  let line = 0;
  let i = from;
  for (; i < record.length; i++) {
    const c = record.charCodeAt(i);
    if (c === 58 /* : */) break;
    if (c < 48 || c > 57) return undefined;
    line = line * 10 + (c - 48);
  }
  return i === from || i === record.length ? undefined : { line, text: i + 1 };
}

/**
 * Reads `--only-matching --line-number --heading --null` output: `path\0` opens a file (its
 * first match follows on the same line), `N:identifier` lines follow, a blank line closes it; a
 * line that is neither is rg's warning that the file turned out binary.
 */
export class ScanReader {
  private path: string | undefined;
  private termFreq = new Map<string, number>();
  private literals = new Set<string>();
  private symbols = new Set<string>();
  private lineTerms: Map<number, string[]> | undefined;
  private binary = false;
  /** The records so far of a path with line breaks, joined by them; its heading's NUL is still to come. */
  private broken: string | undefined;
  /** With `lines`: the line being read, and its terms so far (keywords in order, then literals and symbols). */
  private line = 0;
  private keywordsOfLine: string[] = [];
  private spansOfLine: string[] = [];
  /** The matcher's count of cut fragments when this file began, and whether the file has brought its share. */
  private cutAtStart = 0;
  private full = false;
  /** Files that brought more new fragments than their share (`MAX_NEW_FRAGMENTS_PER_FILE`). */
  dense = 0;

  constructor(
    private readonly matcher: FragmentMatcher,
    private readonly terms: ScanTerms,
    private readonly lines: boolean,
    private readonly onFile: (path: string, tally: FileTally) => void,
    /** Where the matches holding a term are kept, file by file, when they are wanted again. */
    private readonly log?: MatchLog<FragmentTerms>,
  ) {
    if (log) log.cutFor = terms;
  }

  read(record: string): void {
    const nul = record.indexOf('\0');
    if (nul >= 0) {
      // a path holding line breaks came in pieces: the records since the last file begin it
      const start = this.broken;
      this.broken = undefined;
      this.end();
      this.path = toPosix(start === undefined ? record.slice(0, nul) : `${start}\n${record.slice(0, nul)}`);
      this.cutAtStart = this.matcher.cut;
      this.log?.startFile(this.path);
      this.readMatch(record, nul + 1);
      return;
    }
    if (this.broken !== undefined) {
      if (this.broken.length + record.length >= MAX_PATH_CHARS) this.notOutput(this.broken);
      this.broken += `\n${record}`;
      return;
    }
    if (record === '') this.end();
    else if (!this.readMatch(record, 0)) {
      // rg's note on a binary file it was asked to search (`path: binary file matches (…)`)
      if (record.includes('binary file')) {
        if (this.path !== undefined) this.binary = true;
      }
      // between files: the start of a path with a line break in it (its NUL comes on a later line), or not rg's output
      else if (this.path === undefined) this.broken = record;
    }
  }

  /** Neither a heading, a match nor a note, nor the start of a heading: not rg's output (CTXLOOP_RG pointing at another program). */
  private notOutput(record: string): never {
    this.broken = undefined;
    throw new SearchError('search_failed', `ripgrep printed something other than its match output: ${JSON.stringify(record.slice(0, 80))}`);
  }

  end(): void {
    if (this.broken !== undefined) this.notOutput(this.broken);
    this.endLine();
    if (this.path !== undefined && !this.binary && (this.termFreq.size > 0 || this.literals.size > 0 || this.symbols.size > 0)) {
      const tally: FileTally = { termFreq: Object.fromEntries(this.termFreq), literals: this.literals, symbols: this.symbols };
      if (this.lineTerms) tally.lines = this.lineTerms;
      this.onFile(this.path, tally);
    }
    if (this.binary) this.log?.discardFile();
    else this.log?.endFile();
    this.path = undefined;
    this.termFreq = new Map();
    this.literals = new Set();
    this.symbols = new Set();
    this.lineTerms = undefined;
    this.binary = false;
    this.full = false;
  }

  /** One file's matches as an earlier scan kept them, read as if rg printed them now. */
  replay(path: string, log: MatchLog<FragmentTerms>): void {
    this.end();
    this.path = path;
    // the log holds only what counted when the scan read it: all of it counts again, with a
    // fresh matcher that has not seen the files read before this one; or, replayed for the terms
    // the scan ran (as `readEvidenceLines` does), with the terms the scan cut, none cut twice
    this.cutAtStart = Number.POSITIVE_INFINITY;
    if (log.cutFor === this.terms) log.forEachMatch(path, (line, fragment) => this.count(line, fragment));
    else log.forEachMatch(path, (line, fragment) => this.apply(line, fragment.text));
    this.end();
  }

  /** False when the record is not `N:text`. */
  private readMatch(record: string, from: number): boolean {
    const parsed = parseRecord(record, from);
    if (!parsed) return false;
    this.apply(parsed.line, record.slice(parsed.text));
    return true;
  }

  private apply(line: number, fragment: string): void {
    if (!this.full && this.matcher.cut - this.cutAtStart >= MAX_NEW_FRAGMENTS_PER_FILE) {
      this.full = true;
      this.dense++;
    }
    const terms = this.matcher.match(fragment, this.full);
    if (terms) this.count(line, terms);
  }

  private count(line: number, terms: FragmentTerms): void {
    if (this.path === undefined) return;
    for (const [keyword, count] of terms.keywords) this.termFreq.set(keyword, Math.min(MAX_TERM_FREQ, (this.termFreq.get(keyword) ?? 0) + count));
    for (const literal of terms.literals) this.literals.add(literal);
    for (const symbol of terms.symbols) this.symbols.add(symbol);
    this.log?.add(line, terms);
    if (this.lines) {
      if (line !== this.line) this.endLine();
      this.line = line;
      for (const [keyword] of terms.keywords) if (!this.keywordsOfLine.includes(keyword)) this.keywordsOfLine.push(keyword);
      for (const span of [...terms.literals, ...terms.symbols]) if (!this.spansOfLine.includes(span)) this.spansOfLine.push(span);
    }
  }

  private endLine(): void {
    if (this.keywordsOfLine.length > 0 || this.spansOfLine.length > 0) {
      const spans = this.spansOfLine;
      const ordered = spans.length === 0 ? [] : [...this.terms.literals, ...this.terms.symbols].filter((t) => spans.includes(t));
      const terms = ordered.length === 0 ? this.keywordsOfLine : [...new Set([...this.keywordsOfLine, ...ordered])];
      (this.lineTerms ??= new Map()).set(this.line, terms);
      this.keywordsOfLine = [];
      this.spansOfLine = [];
    }
    this.line = 0;
  }
}
