import type { SymbolDef } from '../../core/types.js';
import { findDefs } from './defs.js';
import type { Grammar, Node, QueryMatch } from './runtime.js';
import type { TreeSpec } from './spec.js';

/** What a parse gives; lines and language are the caller's. */
export interface ParsedFacts {
  defs: SymbolDef[];
  imports: string[];
  calls: string[];
  /** 1-based inclusive line ranges the grammar could not read (ERROR nodes), in order. */
  errors: Array<[from: number, to: number]>;
}

const MAX_CALLS = 500;
/**
 * A tree whose ERROR nodes cover more than this share of the lines is not trusted: the grammar
 * did not understand the file (a C++ header read as C, macro-heavy code), and patterns read it.
 */
const MAX_ERROR_SHARE = 0.2;

/**
 * Time a parse and its query may take together: 1 s and 2.5 ms per 1,000 characters, ten times
 * and more what the slowest grammar here needs on real code (2 characters a microsecond on a
 * 570 kB generated table) and room for a first parse's warm-up on a loaded machine, so only a
 * text the grammar reads in exponential time reaches it. Compiling the query is not counted.
 */
export function parseTimeLimit(chars: number): number {
  return 1000 + chars / 400;
}

/**
 * Facts of a file from its syntax tree; undefined when the parse failed or mostly failed, `late`
 * when it took longer than `limitMs` (the caller then uses the pattern extractor). Never throws.
 */
export function parseFacts(grammar: Grammar, spec: TreeSpec, text: string, lines: number, limitMs = parseTimeLimit(text.length)): ParsedFacts | 'late' | undefined {
  const deadline = performance.now() + limitMs;
  try {
    const parsed = grammar.parse(
      text,
      (root) => {
        const errors = root.hasError ? errorRanges(root) : [];
        if (errors.reduce((sum, [from, to]) => sum + to - from + 1, 0) > MAX_ERROR_SHARE * Math.max(lines, 1)) return undefined;
        // One query, one pass over the tree: definitions, imports and calls split by capture name.
        const matches = grammar.matches(`${spec.defs}\n${spec.imports}\n${spec.calls}`, root, deadline);
        return matches ? { defs: findDefs(spec, matches), imports: findImports(spec, matches), calls: findCalls(matches), errors } : 'late';
      },
      deadline,
    );
    return parsed ?? (performance.now() > deadline ? 'late' : undefined);
  } catch {
    return undefined; // A query or the parser gave up on this input: patterns read it instead.
  }
}

/** Lines covered by ERROR nodes, as disjoint 1-based ranges (nested errors count once). */
function errorRanges(root: Node): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const node of root.descendantsOfType('ERROR')) {
    if (!node) continue;
    const from = node.startPosition.row + 1;
    const to = node.endPosition.row + 1;
    const last = ranges[ranges.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  }
  return ranges;
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
