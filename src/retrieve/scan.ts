/**
 * Counts query terms across the whole repository in one ripgrep pass without shipping matched
 * lines to JavaScript: each pattern matches the whole identifier around a term (`-o`), so rg
 * prints only those identifiers, grouped per file, and each distinct identifier is cut into
 * terms once. For the candidates, the same scan also says which terms each line holds, so the
 * evidence lines can be chosen before any line is read (`hits.ts`).
 */
import { searchPrefix } from '../core/text.js';
import type { Logger } from '../core/log.js';
import type { Query } from '../core/types.js';
import type { MatchLog } from './match-log.js';
import { createFragmentMatcher, MAX_NEW_FRAGMENTS_PER_FILE, ScanReader, type FragmentTerms } from './scan-reader.js';
import { commonArgs, pathArgs, runRg, type RgFilter } from './rg-process.js';

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
  /** Also keep each file's matches there, so its lines can be had later without a scan (`replayLines`). */
  matchLog?: MatchLog<FragmentTerms>;
  logger: Logger;
  signal?: AbortSignal | undefined;
  /** Milliseconds one rg process may run. */
  timeout?: number | undefined;
  /** Called when rg could not read some files. */
  onSkippedFiles?: (() => void) | undefined;
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
 * Where an identifier starts (zero-width, ASCII word boundary), with the `$`s it may open with
 * (`$value`): `$` is no word character, so `\b` alone would start it after them.
 */
const START = '(?:(?-u:\\B)[$]+)?(?-u:\\b)';

/**
 * One regex a term, each printing with `-o` the whole identifier around a match (spans only to
 * their right: see below). Keywords by their search prefix, case-insensitively, where a part of
 * an identifier can start (`tokenize`'s parts): at its start, after a `_`, `$` or digit, or at a
 * capital (`getOs`, `HTTPServer`); so `os` prints `osType` and `getOS` but not `position`, which
 * holds no term `os` (such identifiers were 11–34 % of what the perf tasks printed). A keyword
 * may also be the whole term of a snake_case identifier (`fromjson` for `from_json`,
 * `FROM_JSON`), which holds no such substring: a second pattern lets `_` and `$` stand between
 * its letters, from the identifier's start. Identifier symbols print only an identifier they
 * start. Literals verbatim, case-insensitively; symbols in their case. So every identifier
 * holding a term is printed whatever else is searched, and a term's counts do not depend on the
 * other terms of the scan (a later cycle, or a later run, can scan its new terms alone).
 * Literals and dotted symbols come first: at one position rg takes the first alternative that
 * matches, and they may span identifiers.
 *
 * Terms of one kind share one pattern (`START(?:a|b|…)[A-Za-z0-9_$]*`): each of them matches
 * exactly the identifier it starts or lies in, whichever matches first, so rg prints the same
 * identifiers, and one alternation is a third faster to search than a hundred.
 */
export function scanPatterns(terms: ScanTerms): string[] {
  // literals differing only in case match alike: one pattern (the first spelling), as one term of the index
  const lowered = new Set<string>();
  const literals = terms.literals.filter((l) => !lowered.has(l.toLowerCase()) && Boolean(lowered.add(l.toLowerCase())));
  // A span is not widened to the left: rg's literal search can then let a word pattern win at the
  // same place (`cannot` for "cannot allocate memory"), and the literal would be lost.
  const spans = [...literals.filter((l) => l !== '').map((l) => `(?i:${escapeRegex(l)})`), ...terms.symbols.filter((s) => s !== '' && !isIdentifier(s)).map(escapeRegex)].map((core) => `${core}${IDENT}`);
  const prefixes = [...new Set(terms.keywords.map(searchPrefix))].filter((k) => k !== '');
  // a term in another script: `[A-Za-z0-9_$]` does not know its letters, so it is found anywhere
  const foreign = prefixes.filter((k) => !IDENT_ONLY.test(k)).map((k) => `${IDENT}(?i:${escapeRegex(k)})${IDENT}`);
  const words = prefixes.filter((k) => IDENT_ONLY.test(k));
  const humps = words.filter((k) => /^[a-z]/i.test(k)).map((k) => `${k[0]!.toUpperCase()}${k.length > 1 ? `(?i:${escapeRegex(k.slice(1))})` : ''}`);
  const joined = terms.keywords.filter((k) => k.length >= MIN_WHOLE_TERM && /^[a-z0-9]+$/.test(k)).map((k) => `(?i:${[...k].join('[_$]*')})`);
  const names = terms.symbols.filter(isIdentifier);
  const alternation = (cores: readonly string[]): string | undefined => {
    const distinct = [...new Set(cores)];
    return distinct.length === 0 ? undefined : distinct.length === 1 ? distinct[0]! : `(?:${distinct.join('|')})`;
  };
  const kinds: Array<[prefix: string, cores: string[]]> = [
    [`${START}(?:${IDENT}[_$0-9])?`, words.map((k) => `(?i:${escapeRegex(k)})`)],
    [`${START}${IDENT}`, humps],
    [`${START}[_$]*`, joined],
    [START, names.filter((s) => !s.startsWith('$')).map(escapeRegex)],
    // a symbol opening with `$` starts no word: found as before, anywhere in an identifier
    [IDENT, names.filter((s) => s.startsWith('$')).map(escapeRegex)],
  ];
  const grouped = kinds.flatMap(([prefix, cores]) => {
    const core = alternation(cores);
    return core === undefined ? [] : [`${prefix}${core}${IDENT}`];
  });
  return [...new Set([...spans, ...foreign, ...grouped])];
}

/**
 * A term made of identifier characters only: its matches never reach past the identifier
 * around them. (Not a term in another script: `[A-Za-z0-9_$]*` stops at its letters.)
 */
const IDENT_ONLY = /^[A-Za-z0-9_$]+$/;

/** The shortest whole term: two parts of two letters (`identifierTerms` keeps parts of two or more). */
const MIN_WHOLE_TERM = 4;

function isIdentifier(symbol: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(symbol);
}

/**
 * The terms of each matched line of `paths`, as a lines scan (`ScanRun.lines`) for `terms` finds
 * them, from the matches an earlier scan kept: the same only when that scan ran the same
 * patterns (`scanPatterns`) over those files. A file without kept matches held no term.
 */
export function replayLines(log: MatchLog<FragmentTerms>, paths: readonly string[], terms: ScanTerms): Map<string, Map<number, string[]>> {
  const found = new Map<string, Map<number, string[]>>();
  const reader = new ScanReader(createFragmentMatcher(terms), terms, true, (path, tally) => {
    if (tally.lines) found.set(path, tally.lines);
  });
  for (const path of paths) reader.replay(path, log);
  return found;
}

/**
 * Runs the scan and calls `onFile` once per text file holding a term. A file rg finds binary
 * part-way (a NUL after some matches) is left out, as the line search leaves it out.
 */
export async function scanTerms(run: ScanRun, onFile: (path: string, tally: FileTally) => void): Promise<void> {
  const patterns = scanPatterns(run.terms);
  if (run.paths.length === 0 || patterns.length === 0) return;
  const args = [...commonArgs(run), '--only-matching', '--line-number', '--with-filename', '--heading', '--null', '--max-count', String(MAX_LINES_PER_FILE), '-f', '-', ...pathArgs(run.paths)];
  const reader = new ScanReader(createFragmentMatcher(run.terms), run.terms, run.lines ?? false, onFile, run.matchLog);
  await runRg({ ...run, args, stdin: `${patterns.join('\n')}\n` }, (line) => reader.read(line));
  reader.end();
  if (reader.dense > 0) {
    const files = reader.dense === 1 ? '1 file holds' : `${reader.dense} files hold`;
    run.logger.warn(`${files} more than ${MAX_NEW_FRAGMENTS_PER_FILE.toLocaleString('en-US')} distinct names with the task's words (generated code?): only names already seen were counted past them`);
  }
}
