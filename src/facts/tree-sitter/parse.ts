import type { SymbolDef } from '../../core/types.js';
import { findDefs } from './defs.js';
import type { Grammar, Node, QueryMatch } from './runtime.js';
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
      // One query, one pass over the tree: definitions, imports and calls split by capture name.
      const matches = grammar.query(`${spec.defs}\n${spec.imports}\n${spec.calls}`).matches(root);
      return { defs: findDefs(spec, matches), imports: findImports(spec, matches), calls: findCalls(matches) };
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

/** Nodes captured as `name`, in document order. */
function capturedNodes(matches: readonly QueryMatch[], name: string): Node[] {
  const nodes: Node[] = [];
  for (const match of matches) for (const capture of match.captures) if (capture.name === name) nodes.push(capture.node);
  return nodes.sort((a, b) => a.startIndex - b.startIndex);
}

/** Specifiers as written, in order of first appearance. */
function findImports(spec: TreeSpec, matches: readonly QueryMatch[]): string[] {
  const out = new Set<string>();
  for (const node of capturedNodes(matches, 'import')) {
    const text = spec.cleanImport ? spec.cleanImport(node.text) : node.text;
    if (text) out.add(text);
  }
  return [...out];
}

/** Called names, in order of first appearance, at most `MAX_CALLS`. */
function findCalls(matches: readonly QueryMatch[]): string[] {
  const out = new Set<string>();
  for (const node of capturedNodes(matches, 'call')) {
    out.add(node.text);
    if (out.size >= MAX_CALLS) break;
  }
  return [...out];
}
