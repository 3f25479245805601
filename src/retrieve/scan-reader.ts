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
interface FragmentTerms {
  keywords: Array<[string, number]>;
  literals: string[];
  symbols: string[];
  /** The fragment itself, one string for all its occurrences. */
  text: string;
  /** Its number in the scan's match log, once logged. */
  logId?: number;
}

/** `createLineMatcher` over one identifier (or literal span) at a time, remembered: identifiers repeat. */
export function createFragmentMatcher(terms: ScanTerms): (fragment: string) => FragmentTerms | undefined {
  const match = createLineMatcher(terms);
  const memo = new Map<string, FragmentTerms | null>();
  return (fragment) => {
    let found = memo.get(fragment);
    if (found === undefined) {
      // bounded: a repository of generated names would otherwise grow it without end
      if (memo.size >= MAX_KNOWN_FRAGMENTS) memo.clear();
      const line = match(fragment);
      found = line ? { keywords: [...line.keywords], literals: line.literals, symbols: line.symbols, text: fragment } : null;
      memo.set(fragment, found);
    }
    return found ?? undefined;
  };
}

/**
 * What each identifier read as bytes holds, found by a hash of its bytes and checked against
 * them (a hash shared by two identifiers keeps the first; the other is matched as text each
 * time). Bounded as the text memo is.
 */
class BytesMemo {
  private readonly entries = new Map<number, { bytes: Uint8Array; terms: FragmentTerms | null }>();

  /** What the identifier at `buffer[start..end)` holds, or undefined when it is not known. */
  lookup(hash: number, buffer: Buffer, start: number, end: number): FragmentTerms | null | undefined {
    const entry = this.entries.get(hash);
    if (!entry || entry.bytes.length !== end - start) return undefined;
    const bytes = entry.bytes;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] !== buffer[start + i]) return undefined;
    return entry.terms;
  }

  learn(hash: number, buffer: Buffer, start: number, end: number, terms: FragmentTerms | null): FragmentTerms | null {
    if (this.entries.size >= MAX_KNOWN_FRAGMENTS) this.entries.clear();
    if (!this.entries.has(hash)) this.entries.set(hash, { bytes: buffer.subarray(start, end).slice(), terms });
    return terms;
  }
}

/** Identifiers remembered at most: a repository of generated names would otherwise grow the memos without end. */
const MAX_KNOWN_FRAGMENTS = 100_000;

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
  /** The identifiers this scan has read, by their bytes (`readBytes`). */
  private readonly bytesMemo = new BytesMemo();

  constructor(
    private readonly match: (fragment: string) => FragmentTerms | undefined,
    private readonly terms: ScanTerms,
    private readonly lines: boolean,
    private readonly onFile: (path: string, tally: FileTally) => void,
    /** Where the matches holding a term are kept, file by file, when they are wanted again. */
    private readonly log?: MatchLog,
  ) {}

  /**
   * `read` on the bytes of a record. A match record (`N:identifier`), nearly every record a scan
   * prints, is looked up by its bytes: an identifier seen before in this scan is neither decoded
   * nor cut again. Any other record (a heading, a note, a blank line), and any record while a
   * path with line breaks is being put together, is decoded and read as before.
   */
  readBytes(buffer: Buffer, start: number, end: number): void {
    if (this.broken === undefined && this.path !== undefined) {
      let line = 0;
      let i = start;
      for (; i < end; i++) {
        const c = buffer[i]!;
        if (c === 58 /* : */) break;
        if (c < 48 || c > 57) break;
        line = line * 10 + (c - 48);
      }
      if (i > start && i < end && buffer[i] === 58) {
        const from = i + 1;
        // FNV-1a over the identifier's bytes; a NUL means a heading (`12:path\0…`), read as text
        let hash = 0x811c9dc5;
        let nul = false;
        for (let j = from; j < end; j++) {
          const c = buffer[j]!;
          if (c === 0) {
            nul = true;
            break;
          }
          hash = Math.imul(hash ^ c, 0x01000193);
        }
        if (!nul) {
          this.applyKnown(line, this.bytesMemo.lookup(hash >>> 2, buffer, from, end) ?? this.bytesMemo.learn(hash >>> 2, buffer, from, end, this.match(buffer.toString('utf8', from, end)) ?? null));
          return;
        }
      }
    }
    this.read(buffer.toString('utf8', start, end));
  }

  read(record: string): void {
    const nul = record.indexOf('\0');
    if (nul >= 0) {
      // a path holding line breaks came in pieces: the records since the last file begin it
      const start = this.broken;
      this.broken = undefined;
      this.end();
      this.path = toPosix(start === undefined ? record.slice(0, nul) : `${start}\n${record.slice(0, nul)}`);
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
  }

  /** One file's matches as an earlier scan kept them, read as if rg printed them now. */
  replay(path: string, log: MatchLog): void {
    this.end();
    this.path = path;
    log.forEachMatch(path, (line, text) => this.apply(line, text));
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
    this.applyKnown(line, this.match(fragment) ?? null);
  }

  private applyKnown(line: number, terms: FragmentTerms | null): void {
    if (!terms || this.path === undefined) return;
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
