import type { SymbolDef } from '../../core/types.js';
import { findDefs } from './defs.js';
import type { Grammar, Node } from './runtime.js';
import type { TreeSpec } from './spec.js';

/** What a parse gives; lines and language are the caller's. */
export interface ParsedFacts {
  defs: SymbolDef[];
  imports: string[];
  calls: string[];
}

const MAX_CALLS = 500;
/**
 * A tree whose ERROR nodes cover more than this share of the lines is not trusted: the grammar
 * did not understand the file (a C++ header read as C, macro-heavy code), and patterns read it.
 */
const MAX_ERROR_SHARE = 0.2;

/**
 * Facts of a file from its syntax tree, or undefined when the parse failed or mostly failed
 * (the caller then uses the pattern extractor). Never throws.
 */
export function parseFacts(grammar: Grammar, spec: TreeSpec, text: string, lines: number): ParsedFacts | undefined {
  try {
    return grammar.parse(text, (root) => {
      if (root.hasError && errorLines(root) > MAX_ERROR_SHARE * Math.max(lines, 1)) return undefined;
      return { defs: findDefs(grammar, spec, root), imports: findImports(grammar, spec, root), calls: findCalls(grammar, spec, root) };
    });
  } catch {
    return undefined; // A query or the parser gave up on this input: patterns read it instead.
  }
}

/** Lines covered by ERROR nodes (outermost ones, so nested errors count once). */
function errorLines(root: Node): number {
  let covered = 0;
  let until = -1;
  for (const node of root.descendantsOfType('ERROR')) {
    if (!node) continue;
    const from = Math.max(node.startPosition.row, until + 1);
    const to = node.endPosition.row;
    if (to >= from) covered += to - from + 1;
    until = Math.max(until, to);
  }
  return covered;
}

/** Specifiers as written, in order of first appearance. */
function findImports(grammar: Grammar, spec: TreeSpec, root: Node): string[] {
  const out = new Set<string>();
  for (const capture of grammar.query(spec.imports).captures(root)) {
    if (capture.name !== 'import') continue;
    const text = spec.cleanImport ? spec.cleanImport(capture.node.text) : capture.node.text;
    if (text) out.add(text);
  }
  return [...out];
}

/** Called names, in order of first appearance, at most `MAX_CALLS`. */
function findCalls(grammar: Grammar, spec: TreeSpec, root: Node): string[] {
  const out = new Set<string>();
  for (const capture of grammar.query(spec.calls).captures(root)) {
    if (capture.name !== 'call') continue;
    out.add(capture.node.text);
    if (out.size >= MAX_CALLS) break;
  }
  return [...out];
}
