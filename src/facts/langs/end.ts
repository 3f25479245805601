import { indentOf, isBlank, lineOf, type Source } from '../source.js';
import type { LineTest } from './walk.js';

/**
 * How a definition's extent is found from the end of its name:
 * - `body`: the first `{` outside brackets opens the body, its match ends the definition; a `;`
 *   first means a declaration without body; `=`/`=>` first means an expression body (`statement`).
 * - `statement`: up to `;`, or (where newlines end statements) the end of a line not continued.
 * - `paren`: the first `(` and its match (Go `var (…)` groups).
 * - `macro`: the line and its backslash continuations.
 * - `line`: the header line alone.
 */
export type EndMode = 'body' | 'statement' | 'paren' | 'macro' | 'line';

export interface Extent {
  /** 0-based last line. */
  end: number;
  /** Offsets of the body's brackets, when a body was found. */
  open?: number;
  close?: number;
}

/** Lines a header may span before its body opens. */
const MAX_HEADER_LINES = 40;
const CONTINUES_AFTER = /(?:[=,(\[{+\-*/%&|^<>?:.!~]|=>)\s*$/;
const CONTINUES_BEFORE = /^\s*(?:[.?:+\-*/%&|^=,]|=>)/;
/** Header clauses that may start a line at the header's own indentation. */
const HEADER_CLAUSE = /^\s*(?:\{|where\b|throws\b|extends\b|implements\b|requires\b|->|:)/;

/**
 * `asi`: a newline may end a statement (JavaScript, Go, Kotlin, Swift, shell). `colonBody`: a
 * header line ending in `:` opens a body by indentation (Scala 3's `object Parser:`), so the
 * header ends there and the lines below are not read as more of it.
 */
export function findEnd(src: Source, line: number, col: number, mode: EndMode, asi: boolean, colonBody = false): Extent {
  if (mode === 'line') return { end: line };
  if (mode === 'macro') {
    let end = line;
    while (end + 1 < src.raw.length && /\\\s*$/.test(src.raw[end]!)) end++;
    return { end };
  }
  const text = src.text;
  const headerIndent = indentOf(src.lines[line]!);
  let statement = mode === 'statement';
  let ln = line;
  let i = src.lineStart[line]! + col;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') {
      if (statement ? endsStatement(src, ln, asi) : (colonBody && src.lines[ln]!.trimEnd().endsWith(':')) || endsHeader(src, ln, line, headerIndent)) return { end: ln };
      ln++;
      continue;
    }
    if (c === '{' || c === '(' || c === '[') {
      const close = src.close.get(i) ?? text.length;
      if ((c === '{' && mode === 'body' && !statement) || (c === '(' && mode === 'paren')) return { end: lineOf(src, close), open: i, close };
      // A bracketed group is skipped whole: inside it nothing ends the definition.
      ln = lineOf(src, close);
      i = close;
      continue;
    }
    if (c === ')' || c === ']' || c === '}') return { end: lastContentLine(src, ln, i, line) };
    if (c === ';') return { end: ln };
    if (c === '=' && mode === 'body' && isAssignment(text, i)) statement = true;
  }
  return { end: Math.max(line, src.lines.length - 1) };
}

function isAssignment(text: string, i: number): boolean {
  const before = text[i - 1] ?? '';
  const after = text[i + 1] ?? '';
  if (after === '>') return true;
  return after !== '=' && !'=!<>'.includes(before);
}

/** Per source, the first line at or after each line that is not blank: built once, in one pass from the end. */
const contentLines = new WeakMap<Source, Int32Array>();

/**
 * The first non-blank line after `from` (or the line count). Looked up, not walked: every line of
 * a run of blank or comment lines asked the same question, and walked the rest of the run each
 * time (40,000 blank lines between a statement and its continuation took 7.5 s).
 */
function nextContentLine(src: Source, from: number): number {
  let next = contentLines.get(src);
  if (!next) {
    next = new Int32Array(src.lines.length + 1);
    next[src.lines.length] = src.lines.length;
    for (let k = src.lines.length - 1; k >= 0; k--) next[k] = isBlank(src.lines[k]) ? next[k + 1]! : k;
    contentLines.set(src, next);
  }
  return next[Math.min(from + 1, src.lines.length)]!;
}

function endsStatement(src: Source, ln: number, asi: boolean): boolean {
  if (!asi) return false;
  if (CONTINUES_AFTER.test(src.lines[ln]!)) return false;
  const next = src.lines[nextContentLine(src, ln)];
  return next === undefined || !CONTINUES_BEFORE.test(next);
}

/** A header without body yet ends where the next line neither opens the body nor is indented deeper. */
function endsHeader(src: Source, ln: number, start: number, headerIndent: number): boolean {
  if (ln - start >= MAX_HEADER_LINES) return true;
  const k = nextContentLine(src, ln);
  const next = src.lines[k];
  if (next === undefined) return true;
  if (HEADER_CLAUSE.test(next)) return false;
  return indentOf(next) <= headerIndent;
}

/** The line an enclosing block's closer interrupts: the closer's line if text precedes it, else the one before. */
function lastContentLine(src: Source, ln: number, at: number, start: number): number {
  const before = src.text.slice(src.lineStart[ln]!, at);
  return before.trim() === '' && ln > start ? ln - 1 : ln;
}

/**
 * First line of the decorators, annotations or attributes written above a header (`@x`, `#[x]`,
 * `[X]`, `template <…>`), skipping comments and continuation lines between them.
 */
export function decoratorStart(src: Source, header: number, prefix: LineTest | undefined): number {
  if (!prefix) return header;
  let start = header;
  const level = src.depth[header]!;
  for (let k = header - 1; k >= 0; k--) {
    const line = src.lines[k]!;
    if (isBlank(src.raw[k])) break;
    if (isBlank(line) || src.depth[k]! > level || src.inside[k]) continue;
    if (!prefix.test(line)) break;
    start = k;
  }
  return start;
}
