import type { SymbolDef } from '../../core/types.js';
import { isBlank, lineOf, makeDef, type Def, type Source } from '../source.js';
import { decoratorStart, findEnd, type EndMode } from './end.js';

export interface Picked {
  name: string;
  kind?: SymbolDef['kind'];
  parent?: string;
}

export interface PickContext {
  src: Source;
  /** 0-based header line and last line. */
  line: number;
  end: number;
}

/** One way a definition is written in a brace language. */
export interface Rule {
  /** Tested on the masked line; group `name` (and `parent`); the extent search starts where it ends. */
  re: RegExp;
  kind: SymbolDef['kind'];
  mode: EndMode;
  /** Rules applied to the lines directly inside the body (class members). */
  inner?: () => readonly Rule[];
  /** A container that is not itself a definition (Rust `impl`, C++ `namespace`). */
  hidden?: boolean;
  /** Children keep the outer parent instead of taking this definition's name. */
  transparent?: boolean;
  /** Only a definition when a body follows (C function definitions, not prototypes). */
  requireBody?: boolean;
  /** Sets name, kind or parent once the extent is known; undefined vetoes the match. */
  pick?: (m: RegExpExecArray, ctx: PickContext) => Picked | undefined;
}

/**
 * A namespace-like block (C++ `namespace`, `extern "C"`, C# and PHP `namespace`): not a definition
 * itself, and what it holds is read with the top-level rules and keeps the outer parent.
 */
export function transparentBlock(re: RegExp, top: () => readonly Rule[], name: string): Rule {
  return { re, kind: 'module', mode: 'body', hidden: true, transparent: true, inner: top, pick: () => ({ name }) };
}

/** A test of one line: a RegExp, or a scanner where a regex would backtrack. */
export interface LineTest {
  test(line: string): boolean;
}

/** A name in any script (`Größe`, `получить`, `नमस्ते`): with the `u` flag only. */
export const NAME = String.raw`[\p{L}_$][\p{L}\p{M}\p{N}_$]*`;

/**
 * A line of annotations or decorators alone (`@Override`, `@A @B(x = 1)`, `@Retryable(backoff =
 * Backoff(delay = 100))`, or one whose arguments go on below): what belongs to the header under
 * it. A line that also defines something (`@inline def a = 1`) is a definition of its own, and
 * the walk up stops there. Scanned, not matched: a pattern for nested arguments backtracks.
 */
export const ANNOTATION_LINE: LineTest = {
  test(line) {
    let i = 0;
    const skipBlanks = (): void => {
      while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
    };
    skipBlanks();
    if (line[i] !== '@') return false;
    while (i < line.length) {
      if (line[i] !== '@') return false;
      i++;
      const nameStart = i;
      while (i < line.length && /[\w.$]/.test(line[i]!)) i++;
      if (i === nameStart) return false;
      skipBlanks();
      if (line[i] === '(') {
        // its arguments, nested or not; unclosed, they go on below
        let depth = 0;
        for (; i < line.length; i++) {
          if (line[i] === '(') depth++;
          else if (line[i] === ')' && --depth === 0) break;
        }
        if (i >= line.length) return true;
        i++;
        skipBlanks();
      }
    }
    return true;
  },
};

/** A line of bracketed attributes alone: C#'s `[Serializable]`, Rust's and PHP's `#[derive(…)]` (`open` is what starts one). */
export function attributeLine(open: string): RegExp {
  return new RegExp(String.raw`^\s*${open.replace(/[#![]/g, (c) => `\\${c}`)}(?:.*\]\s*|[^\]]*)$`);
}

export interface LangSpec {
  top: readonly Rule[];
  /** A newline may end a statement. */
  asi: boolean;
  /** Lines above a header that belong to it (decorators, annotations, attributes): lines of those alone. */
  prefix?: LineTest;
  /** A header line ending in `:` opens a body by indentation (Scala 3). */
  colonBody?: boolean;
}

/** Long lines (minified code) are only read this far for definitions. */
const MAX_HEADER_CHARS = 400;

/**
 * Definitions of a brace language: each line directly inside the file or a container (no other
 * bracket open) is tried against the rules; containers recurse one level deeper. Lines inside
 * function bodies are never tried, so calls and statements are not mistaken for definitions.
 */
export function walkDefs(src: Source, spec: LangSpec): Def[] {
  const defs: Def[] = [];
  const visit = (rules: readonly Rule[], from: number, to: number, level: number, parent: string | undefined): void => {
    for (let j = from; j <= to; j++) {
      if (src.depth[j] !== level || src.inside[j]) continue;
      const line = src.lines[j]!;
      if (isBlank(line)) continue;
      const head = line.length > MAX_HEADER_CHARS ? line.slice(0, MAX_HEADER_CHARS) : line;
      for (const rule of rules) {
        const m = rule.re.exec(head);
        if (!m) continue;
        const extent = findEnd(src, j, m.index + m[0].length, rule.mode, spec.asi, spec.colonBody);
        if (rule.requireBody && extent.open === undefined) continue;
        const picked = rule.pick ? rule.pick(m, { src, line: j, end: extent.end }) : { name: m.groups?.name ?? '' };
        if (!picked?.name) continue;
        const owner = picked.parent ?? parent;
        if (!rule.hidden) defs.push(makeDef(picked.name, picked.kind ?? rule.kind, decoratorStart(src, j, spec.prefix), extent.end, j, owner));
        if (rule.inner && extent.open !== undefined && extent.close !== undefined) {
          const childParent = rule.transparent ? parent : picked.name;
          visit(rule.inner(), lineOf(src, extent.open) + 1, Math.min(to, lineOf(src, extent.close)), level + 1, childParent);
        }
        j = Math.max(j, extent.end);
        break;
      }
    }
  };
  visit(spec.top, 0, src.lines.length - 1, 0, undefined);
  return defs;
}

/** Name group, or a fallback when the definition is anonymous (`export default function () {}`). */
export function nameOr(m: RegExpExecArray, fallback: string): string {
  return m.groups?.name ?? fallback;
}

/** Masked text of the header and the next few lines, for decisions a single line can't make. */
export function headText(ctx: PickContext, lines = 4): string {
  return ctx.src.lines.slice(ctx.line, Math.min(ctx.end, ctx.line + lines) + 1).join('\n');
}
