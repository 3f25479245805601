import { languageOf } from '../core/files.js';
import type { FileFacts, SymbolDef } from '../core/types.js';
import { findCalls } from './calls.js';
import { findImports } from './imports.js';
import { extractDefs } from './langs/index.js';
import { syntaxOf } from './mask/syntax.js';
import { createSource, type Def, type Source } from './source.js';

export type ExtractedFacts = Omit<FileFacts, 'path' | 'hash'>;

/** CRLF → LF only: ripgrep counts lines by `\n`, so a lone `\r` must not start a line here either. */
export function normalizeNewlines(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

/**
 * Structure of one file from its text: definitions with exact 1-based inclusive lines, import
 * specifiers as written, called names. Pattern-based (comments and strings masked first), so it
 * is fast and never throws: on input it cannot read, it returns less.
 */
export function extractFacts(path: string, text: string): ExtractedFacts {
  const language = languageOf(path);
  const raw = normalizeNewlines(text);
  const lines = countLines(raw);
  const facts: ExtractedFacts = { language, lines, defs: [], imports: [], calls: [] };
  const syntax = syntaxOf(language);
  if (!syntax || raw.length === 0) return facts;
  let src: Source;
  try {
    src = createSource(raw, syntax);
  } catch {
    return facts; // Nothing readable: the file still counts, with no structure.
  }
  let defs: Def[] = [];
  try {
    defs = extractDefs(language, src);
    facts.defs = defs.map((def) => toSymbolDef(def, lines)).sort(byPosition);
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
  const start = Math.min(def.start, Math.max(1, lines));
  const out: SymbolDef = { name: def.name, kind: def.kind, start, end: Math.max(start, Math.min(def.end, lines)) };
  if (def.parent !== undefined) out.parent = def.parent;
  return out;
}

/** Outer definitions before the inner ones they contain. */
function byPosition(a: SymbolDef, b: SymbolDef): number {
  return a.start - b.start || b.end - a.end || a.name.localeCompare(b.name);
}
