import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/cache/memory.js';
import type { Logger } from '../../src/core/log.js';
import { createFactsReader } from '../../src/facts/reader.js';
import { TYPESCRIPT } from '../../src/facts/tree-sitter/specs/javascript.js';
import { loadGrammar, type Grammar } from '../../src/facts/tree-sitter/runtime.js';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

// A grammar can read some texts in exponential time (40 kB of `/* x` lines took 19 s in the
// JavaScript grammar, a line of backticks 80 s in the query): parses and queries run against a
// deadline, and the reader falls back to patterns. The deadline is passed here, never waited on.

/** A TypeScript file long enough for the parser and the query to check their deadline. */
function functions(prefix: string, count: number): string {
  return Array.from({ length: count }, (_, i) => `export function ${prefix}${i}(a: number): number {\n  return helper(a + ${i});\n}\n`).join('\n');
}

const PAST = (): number => performance.now() - 1;

async function typescript(): Promise<Grammar> {
  const grammar = await loadGrammar('typescript');
  if (!grammar) throw new Error('typescript grammar did not load');
  return grammar;
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

function repo(files: Record<string, string>): TempRepo {
  const r = makeRepo(files, { git: false });
  cleanups.push(r.cleanup);
  return r;
}

function warnings(): Logger & { warnings: string[] } {
  const out: string[] = [];
  return { warnings: out, debug() {}, info() {}, warn: (m) => void out.push(m), error() {} };
}

describe('tree-sitter against a deadline', () => {
  it('gives up a parse past its deadline, and the next parse reads its own text from the start', async () => {
    const grammar = await typescript();
    expect(grammar.parse(functions('first', 200), (root) => root.text, PAST())).toBeUndefined();
    // A cancelled parse left in the parser would be resumed by this one.
    const second = functions('second', 30);
    expect(grammar.parse(second, (root) => ({ text: root.text, errors: root.hasError }))).toEqual({ text: second, errors: false });
  });

  it('gives up a query past its deadline rather than returning the matches found so far', async () => {
    const grammar = await typescript();
    const text = functions('f', 200);
    const query = TYPESCRIPT.defs;
    // compiled here: compiling is not the file's time, and moves the deadline by what it took
    expect(grammar.parse(text, (root) => grammar.matches(query, root)?.length)).toBeGreaterThanOrEqual(200);
    expect(grammar.parse(text, (root) => grammar.matches(query, root, PAST()))).toBeUndefined();
  });

  it('reads a file whose parse runs out of time with patterns, and keeps those facts', async () => {
    const r = repo({ 'src/slow.ts': functions('slow', 200) });
    const cache = createMemoryCache();
    const late = await createFactsReader({ cache, parseTimeLimit: 0 }).read(r.root, ['src/slow.ts']);
    const facts = late.get('src/slow.ts')!;
    expect(facts.parser).toBe('patterns');
    expect(facts.defs.map((d) => d.name)).toEqual(Array.from({ length: 200 }, (_, i) => `slow${i}`));
    // Kept: the file costs its deadline once, not on every run.
    const again = await createFactsReader({ cache }).read(r.root, ['src/slow.ts']);
    expect(again.get('src/slow.ts')!.parser).toBe('patterns');
  });

  it('stops parsing once its budget for late parses is spent, says so once, and does not keep what it read without parsing', async () => {
    const files = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`src/f${i}.ts`, functions(`f${i}_`, 200)]));
    const r = repo(files);
    const cache = createMemoryCache();
    const logger = warnings();
    const paths = Object.keys(files);
    const first = await createFactsReader({ cache, logger, parseTimeLimit: 0, parseBudget: 1e-9, concurrency: 1 }).read(r.root, paths);
    expect(paths.map((p) => first.get(p)!.parser)).toEqual(['patterns', 'patterns', 'patterns', 'patterns']);
    expect(logger.warnings).toEqual(['tree-sitter ran out of time on files like src/f0.ts; the rest of this run\'s files are read with patterns']);
    // Only the file that ran out of time was kept; the others are parsed by the next reader.
    const next = await createFactsReader({ cache }).read(r.root, paths);
    expect(paths.map((p) => next.get(p)!.parser)).toEqual(['patterns', 'tree-sitter', 'tree-sitter', 'tree-sitter']);
  });
});
