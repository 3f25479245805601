import { matchBrackets } from './mask/brackets.js';
import { maskText } from './mask/mask.js';
import type { Syntax } from './mask/syntax.js';
import type { SymbolDef } from '../core/types.js';

/** A file prepared for pattern-based reading: raw and masked lines side by side, brackets matched. */
export interface Source {
  /** Raw lines (CRLF already normalized). */
  raw: string[];
  /** Masked lines: comments and string contents blanked, same lengths as `raw`. */
  lines: string[];
  /** Masked text (the lines joined by `\n`). */
  text: string;
  /** Offset of each line in `text`. */
  lineStart: number[];
  /** 1 when the line starts inside a string or block comment. */
  inside: Uint8Array;
  /** Brackets open at each line start. */
  depth: Int32Array;
  /** Opening bracket offset → closing bracket offset. */
  close: Map<number, number>;
}

/** A definition with the line its name is written on (decorators may start it earlier). 0-based lines. */
export interface Def extends SymbolDef {
  header: number;
}

export function createSource(raw: string, syntax: Syntax): Source {
  const masked = maskText(raw, syntax);
  const lines = masked.text.split('\n');
  const lineStart = new Array<number>(lines.length);
  let offset = 0;
  for (let k = 0; k < lines.length; k++) {
    lineStart[k] = offset;
    offset += lines[k]!.length + 1;
  }
  const inside = new Uint8Array(lines.length);
  let line = 1;
  for (let k = 0; k < masked.inside.length; k += 2) {
    const from = masked.inside[k]!;
    const to = masked.inside[k + 1]!;
    while (line < lines.length && lineStart[line]! < from) line++;
    for (let l = line; l < lines.length && lineStart[l]! < to; l++) inside[l] = 1;
  }
  const { depth, close } = matchBrackets(masked.text, lines.length);
  return { raw: raw.split('\n'), lines, text: masked.text, lineStart, inside, depth, close };
}

/** 0-based line of an offset in the masked text. */
export function lineOf(src: Source, offset: number): number {
  let lo = 0;
  let hi = src.lineStart.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (src.lineStart[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function indentOf(line: string): number {
  let k = 0;
  while (k < line.length && (line[k] === ' ' || line[k] === '\t')) k++;
  return k;
}

export function isBlank(line: string | undefined): boolean {
  return line === undefined || line.trim() === '';
}

/** A SymbolDef with 1-based lines, `parent` only when there is one. */
export function makeDef(name: string, kind: SymbolDef['kind'], start: number, end: number, header: number, parent?: string): Def {
  const def: Def = { name, kind, start: start + 1, end: Math.max(start, end) + 1, header };
  if (parent) def.parent = parent;
  return def;
}
