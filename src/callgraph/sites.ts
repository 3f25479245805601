/** Definitions and call sites in a file, from its facts and its lines. Pure. */
import { isDefinitionLine } from '../core/definitions.js';
import type { SymbolDef } from '../core/types.js';

/** A definition somewhere in the repository. */
export interface DefSite {
  /** Root-relative path. */
  file: string;
  symbol: string;
  kind: SymbolDef['kind'] | 'module';
  /** 1-based, inclusive. */
  start: number;
  end: number;
}

/** A line that calls a name, and the definition the call is written in. */
export interface CallSite {
  file: string;
  line: number;
  caller: DefSite;
}

const CALLABLE = new Set<SymbolDef['kind']>(['function', 'method', 'class', 'struct', 'macro']);

/** Whether a definition can be called (functions, methods, constructors, macros, and function-valued variables). */
export function isCallable(def: SymbolDef): boolean {
  return CALLABLE.has(def.kind) || ((def.kind === 'variable' || def.kind === 'constant') && def.end > def.start);
}

/** The innermost callable definition around a line, or the file's top level. */
export function enclosingDefinition(file: string, defs: readonly SymbolDef[], line: number, lines: number): DefSite {
  let best: SymbolDef | undefined;
  for (const def of defs) {
    if (!isCallable(def) || def.start > line || def.end < line) continue;
    if (!best || def.end - def.start < best.end - best.start) best = def;
  }
  return best ? siteOf(file, best) : { file, symbol: '<top level>', kind: 'module', start: 1, end: Math.max(lines, 1) };
}

export function siteOf(file: string, def: SymbolDef): DefSite {
  return { file, symbol: def.name, kind: def.kind, start: def.start, end: def.end };
}

const patterns = new Map<string, RegExp>();

/**
 * Whether `text` calls `name`: `name(`, `obj.name(`, `name<T>(`, `name!(` — not its definition.
 * `calls` is `countCalls(text, name)`, for a caller that has it already.
 */
export function isCallOf(text: string, name: string, calls = countCalls(text, name)): boolean {
  // a definition's line names it before `(` once; a second time is a call (`function f() { return f(); }`)
  return calls > 0 && (calls > 1 || !isDefinitionLine(text, name));
}

/** How many times `name` stands before `(` on the line, as a call or a definition's head. */
export function countCalls(text: string, name: string): number {
  let re = patterns.get(name);
  if (!re) {
    re = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}\\s*(?:!|::<[^>()]*>|<[^>()]*>)?\\s*\\(`, 'g');
    patterns.set(name, re);
  }
  re.lastIndex = 0;
  let count = 0;
  while (re.exec(text) !== null && count < 2) count++;
  return count;
}

/** Names called in a definition's body, each with the first line calling it, in line order. */
export function findCallsIn(site: DefSite, lines: readonly string[], names: ReadonlySet<string>, defs: readonly SymbolDef[]): Array<{ name: string; line: number }> {
  const headers = new Set(defs.map((d) => `${d.start}:${d.name}`));
  const found = new Map<string, number>();
  const last = Math.min(site.end, lines.length);
  for (let n = site.start; n <= last; n++) {
    const text = lines[n - 1]!;
    if (!text.includes('(')) continue;
    for (const match of text.matchAll(/[A-Za-z_$][\w$]*/g)) {
      const name = match[0];
      // a name on its own definition's line is its head, unless it stands there twice (a one-line recursion)
      if (found.has(name) || !names.has(name)) continue;
      const calls = countCalls(text, name);
      if (headers.has(`${n}:${name}`) && calls < 2) continue;
      if (isCallOf(text, name, calls)) found.set(name, n);
    }
  }
  return [...found].map(([name, line]) => ({ name, line })).sort((a, b) => a.line - b.line);
}
