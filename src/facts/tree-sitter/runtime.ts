import { createRequire } from 'node:module';
import { Language, Parser, Query, type Node, type QueryMatch } from 'web-tree-sitter';

// The only file that touches web-tree-sitter and the grammar package. The runtime (0.26) and
// the grammars (@repomix/tree-sitter-wasms, built with tree-sitter-cli 0.26) share an ABI; the
// older `tree-sitter-wasms` builds do not all load in this runtime, so they are not used.
const require = createRequire(import.meta.url);

export type { Node, QueryMatch };

/**
 * A loaded grammar: parses text and runs its queries. Parse is synchronous once loaded, so both
 * take a deadline (a `performance.now()` time): a text the grammar reads in exponential time
 * (an unclosed comment repeated thousands of times, a run of backticks) is given up on at the
 * deadline instead of holding the process for minutes.
 */
export interface Grammar {
  readonly name: string;
  /** Root node of the text's tree, handed to `use` and freed after; undefined when parsing was refused or ran past `deadline`. */
  parse<T>(text: string, use: (root: Node) => T, deadline?: number): T | undefined;
  /** Matches of the query `source` (compiled once per grammar and source) under `root`; undefined when it ran past `deadline`. Throws on a query that does not fit the grammar. */
  matches(source: string, root: Node, deadline?: number): QueryMatch[] | undefined;
}

let ready: Promise<void> | undefined;
const grammars = new Map<string, Promise<Grammar | undefined>>();

/** Loads the runtime once per process. */
function initRuntime(): Promise<void> {
  ready ??= Parser.init();
  return ready;
}

/**
 * The grammar `name` (the wasm file's stem: `typescript`, `c_sharp`, …), loaded once and kept
 * for the process; undefined when its file is missing or does not load (the caller falls back
 * to patterns). Never throws.
 */
export function loadGrammar(name: string, onError?: (message: string) => void): Promise<Grammar | undefined> {
  let found = grammars.get(name);
  if (!found) {
    found = createGrammar(name).catch((error: unknown) => {
      onError?.(`tree-sitter grammar ${name} did not load: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
    grammars.set(name, found);
  }
  return found;
}

async function createGrammar(name: string): Promise<Grammar> {
  await initRuntime();
  const file = require.resolve(`@repomix/tree-sitter-wasms/out/tree-sitter-${name}.wasm`);
  const language = await Language.load(file);
  const parser = new Parser();
  parser.setLanguage(language);
  const queries = new Map<string, Query>();
  return {
    name,
    parse(text, use, deadline = Infinity) {
      // Typed as returning void, but a true return cancels the parse (web-tree-sitter 0.26).
      const late = (): boolean => performance.now() > deadline;
      let tree;
      try {
        tree = parser.parse(text, null, { progressCallback: late });
      } finally {
        // A cancelled parse leaves its state in the parser, and the next parse would resume it.
        if (!tree) parser.reset();
      }
      if (!tree) return undefined;
      try {
        return use(tree.rootNode);
      } finally {
        tree.delete();
      }
    },
    matches(source, root, deadline = Infinity) {
      let query = queries.get(source);
      if (!query) {
        // compiled once per grammar (up to a quarter second on a loaded machine): not the file's time
        const started = performance.now();
        query = new Query(language, source);
        queries.set(source, query);
        deadline += performance.now() - started;
      }
      // A cancelled query returns the matches found so far: only the flag tells them apart.
      let late = false;
      const found = query.matches(root, { progressCallback: () => (late = performance.now() > deadline) });
      return late ? undefined : found;
    },
  };
}
