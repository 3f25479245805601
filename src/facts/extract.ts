import { languageOf } from '../core/files.js';
import type { FileFacts, SymbolDef } from '../core/types.js';
import { findCalls } from './calls.js';
import { findImports } from './imports.js';
import { extractDefs } from './langs/index.js';
import { syntaxOf } from './mask/syntax.js';
import { createSource, type Def, type Source } from './source.js';
import { parseFacts } from './tree-sitter/parse.js';
import type { Grammar } from './tree-sitter/runtime.js';
import type { TreeSpec } from './tree-sitter/spec.js';
import { normalizeNewlines } from './newlines.js';
import { joinQualified } from './qualified.js';

export type ExtractedFacts = Omit<FileFacts, 'path' | 'hash'>;

/** A loaded grammar and how its tree becomes facts (see `tree-sitter/`). */
export interface TreeInput {
  grammar: Grammar;
  spec: TreeSpec;
  /** Time the parse may take (ms); by default it grows with the text (`parseTimeLimit`). */
  limitMs?: number;
  /** Called when the parse ran out of time and patterns read the file instead. */
  onLate?: () => void;
}

/**
 * Structure of one file from its text: definitions with exact 1-based inclusive lines (and
 * qualified names), import specifiers as written, called names. With a grammar, from the syntax
 * tree; without one, or when the parse fails or runs out of time, pattern-based (comments and
 * strings masked first).
 * Never throws: on input it cannot read, it returns less.
 */
export function extractFacts(path: string, text: string, tree?: TreeInput): ExtractedFacts {
  const language = languageOf(path);
  const raw = normalizeNewlines(text);
  const lines = countLines(raw);
  const parsed = tree && raw.length > 0 ? parseFacts(tree.grammar, tree.spec, raw, lines, tree.limitMs) : undefined;
  if (parsed === 'late') tree?.onLate?.();
  if (!parsed || parsed === 'late') return readWithPatterns(language, raw, lines);
  const facts: ExtractedFacts = { language, lines, parser: 'tree-sitter', defs: parsed.defs.map((def) => clampDef(def, lines)), imports: parsed.imports, calls: parsed.calls };
  if (parsed.errors.length > 0) patchErrors(facts, parsed.errors, readWithPatterns(language, raw, lines));
  facts.defs.sort(byPosition);
  return facts;
}

/**
 * Where the grammar gave up (an `#ifdef` inside an initializer, syntax newer than the grammar),
 * the patterns' definitions starting in those lines are added, and their imports and calls.
 */
function patchErrors(facts: ExtractedFacts, errors: ReadonlyArray<[number, number]>, patterns: ExtractedFacts): void {
  const known = new Set(facts.defs.map((d) => `${d.name}:${d.start}`));
  const inError = (line: number): boolean => errors.some(([from, to]) => line >= from && line <= to);
  for (const def of patterns.defs) if (inError(def.start) && !known.has(`${def.name}:${def.start}`)) facts.defs.push(def);
  facts.imports = [...new Set([...facts.imports, ...patterns.imports])];
  facts.calls = [...new Set([...facts.calls, ...patterns.calls])].slice(0, Math.max(facts.calls.length, 500));
}

/** The pattern extractor: comments and strings masked, then per-language patterns. */
function readWithPatterns(language: string, raw: string, lines: number): ExtractedFacts {
  const facts: ExtractedFacts = { language, lines, defs: [], imports: [], calls: [] };
  const syntax = syntaxOf(language);
  if (!syntax || raw.length === 0) return facts;
  facts.parser = 'patterns';
  let src: Source;
  try {
    src = createSource(raw, syntax);
  } catch {
    return facts; // Nothing readable: the file still counts, with no structure.
  }
  let defs: Def[] = [];
  try {
    defs = extractDefs(language, src);
    facts.defs = qualify(defs.map((def) => toSymbolDef(def, lines)).sort(byPosition));
  } catch {
    // A pattern gave up on odd input: imports and calls are still worth having.
  }
  try {
    facts.imports = findImports(language, raw, src);
  } catch {
    // As above.
  }
  try {
    facts.calls = findCalls(src, defs);
  } catch {
    // As above.
  }
  return facts;
}

/** Lines as an editor counts them: a final newline does not start another line. */
function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Clamped to the file: an unclosed block may run past a final newline. */
function toSymbolDef(def: Def, lines: number): SymbolDef {
  const out: SymbolDef = { name: def.name, kind: def.kind, start: def.start, end: def.end };
  if (def.parent !== undefined) out.parent = def.parent;
  return clampDef(out, lines);
}

function clampDef(def: SymbolDef, lines: number): SymbolDef {
  const start = Math.min(def.start, Math.max(1, lines));
  return { ...def, start, end: Math.max(start, Math.min(def.end, lines)) };
}

/**
 * Qualified names for pattern-read definitions (sorted outer first): the enclosing definition
 * named as the parent gives its qualified name as the prefix; a parent that does not enclose
 * (a Go receiver) is the prefix as written.
 */
function qualify(defs: SymbolDef[]): SymbolDef[] {
  const open: SymbolDef[] = [];
  for (const def of defs) {
    while (open.length > 0 && open[open.length - 1]!.end < def.start) open.pop();
    if (def.parent !== undefined) {
      const owner = open.findLast((o) => o.name === def.parent && o.end >= def.end);
      def.qualified = joinQualified(owner?.qualified ?? def.parent, '.', def.name);
    } else def.qualified = def.name;
    open.push(def);
  }
  return defs;
}

/** Outer definitions before the inner ones they contain. */
function byPosition(a: SymbolDef, b: SymbolDef): number {
  return a.start - b.start || b.end - a.end || a.name.localeCompare(b.name);
}
