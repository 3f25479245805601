import { createSymbolLookup } from '../callgraph/lookup.js';
import { isCallable, siteOf, type DefSite } from '../callgraph/sites.js';
import { walkCalls } from '../callgraph/walk.js';
import type { Deps, FactsReader, SearchScope } from '../core/deps.js';
import { resolveImport } from '../core/imports.js';
import type { ResolvedOptions } from '../core/options.js';
import type { Candidate, FileFacts, Query, Score } from '../core/types.js';

/** Best files deep mode starts from at most (those over the threshold; the best few when none is). */
const START_FILES = 5;
const START_WHEN_NONE = 3;
/** Definitions walked from per starting file, and in all. */
const ROOTS_PER_FILE = 4;
const MAX_ROOTS = 12;
/** Callers and callees per definition and hop: fewer than `trace` shows, since each becomes a candidate to score. */
const FAN_OUT = 5;
const MAX_NODES = 80;
/** Import specifiers followed per file. */
const IMPORTS_PER_FILE = 30;
/** New files deep mode adds at most. */
const MAX_NEW_FILES = 30;

export interface DeepInput {
  deps: Deps;
  options: ResolvedOptions;
  scope: SearchScope;
  files: readonly string[];
  /** What the task asks for: the deep candidates' evidence is searched with it. */
  plan: Query;
  scores: readonly Score[];
  /** Facts read so far (added to). */
  facts: Map<string, FileFacts>;
  /** Candidates already found: deep mode adds only files not among them. */
  pool: ReadonlyMap<string, Candidate>;
  signal?: AbortSignal | undefined;
}

/**
 * Files the best files lead to, `deepDepth` hops out: the definitions that call or are called
 * by the code the evaluator pointed at (its evidence lines, and the symbols the task names),
 * cycles cut, and the files they import. Returned as candidates with their own evidence for the
 * task, to be scored with the rest.
 */
export async function findDeepCandidates(input: DeepInput): Promise<Candidate[]> {
  const { deps, options, scope, files, facts, pool, signal } = input;
  const start = startFiles(input.scores, options.threshold);
  if (start.length === 0) return [];
  // calls are followed on syntax trees where a grammar is bundled: the loop ranked on patterns
  const exact: FactsReader = { read: (root, paths, abort) => deps.facts.read(root, paths, abort, true), readText: (root, path) => deps.facts.readText(root, path) };
  for (const [path, read] of await exact.read(options.root, start.map((s) => s.path), signal)) facts.set(path, read);

  const found: string[] = [];
  const add = (path: string): void => {
    if (!pool.has(path) && !found.includes(path)) found.push(path);
  };
  const lookup = createSymbolLookup({ scope, searcher: deps.searcher, facts: exact, ...(signal ? { signal } : {}) });
  const roots = start.flatMap((score) => rootsOf(score, facts.get(score.path), input.plan)).slice(0, MAX_ROOTS);
  const walked = await walkCalls(lookup, roots, { direction: 'both', depth: options.deepDepth, fanOut: FAN_OUT, maxNodes: MAX_NODES, ...(signal ? { signal } : {}) });
  for (const site of walked.sites) add(site.file);
  for (const path of await followImports(start.map((s) => s.path), input, options.deepDepth)) add(path);

  const chosen = found.slice(0, MAX_NEW_FILES);
  if (chosen.length === 0) return [];
  // Their evidence for the task, from a search limited to them; a file without any still gets scored.
  const searched = await deps.searcher.search({ ...scope, scope: chosen, query: { ...input.plan, excludes: [] }, maxCandidates: chosen.length }, signal);
  const byPath = new Map(searched.candidates.map((c) => [c.path, c]));
  const out: Candidate[] = [];
  for (const path of chosen) {
    const candidate = byPath.get(path) ?? (await bareCandidate(deps, options.root, path));
    if (candidate) out.push({ ...candidate, sources: [...new Set([...candidate.sources, 'neighbour' as const])] });
  }
  return out;
}

function startFiles(scores: readonly Score[], threshold: number): Score[] {
  const ranked = [...scores].filter((s) => s.relevance > 0).sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1));
  const over = ranked.filter((s) => s.relevance >= threshold).slice(0, START_FILES);
  return over.length > 0 ? over : ranked.slice(0, START_WHEN_NONE);
}

/** The definitions a file's evidence lines fall in, and those the task names, callable ones only. */
function rootsOf(score: Score, facts: FileFacts | undefined, plan: Query): DefSite[] {
  if (!facts) return [];
  const named = new Set(plan.symbols);
  const defs = facts.defs.filter((d) => isCallable(d) && (named.has(d.name) || score.evidence.some((line) => line >= d.start && line <= d.end)));
  // Innermost first: a method says more than the class around it.
  return defs
    .sort((a, b) => Number(named.has(b.name)) - Number(named.has(a.name)) || a.end - a.start - (b.end - b.start))
    .slice(0, ROOTS_PER_FILE)
    .map((d) => siteOf(score.path, d));
}

/** Files imported from `start`, `depth` hops out (each file once). */
async function followImports(start: string[], input: DeepInput, depth: number): Promise<string[]> {
  const { deps, options, files, facts, signal } = input;
  const seen = new Set(start);
  const out: string[] = [];
  let frontier = start;
  for (let hop = 0; hop < depth && frontier.length > 0 && out.length < MAX_NEW_FILES; hop++) {
    const missing = frontier.filter((p) => !facts.has(p));
    for (const [path, read] of await deps.facts.read(options.root, missing, signal)) facts.set(path, read);
    const next: string[] = [];
    for (const path of frontier) {
      const fileFacts = facts.get(path);
      if (!fileFacts) continue;
      for (const spec of fileFacts.imports.slice(0, IMPORTS_PER_FILE)) {
        for (const target of resolveImport(path, spec, fileFacts.language, files)) {
          if (seen.has(target)) continue;
          seen.add(target);
          out.push(target);
          next.push(target);
        }
      }
    }
    frontier = next;
  }
  return out;
}

async function bareCandidate(deps: Deps, root: string, path: string): Promise<Candidate | undefined> {
  const text = await deps.facts.readText(root, path);
  if (text === undefined) return undefined;
  return { path, size: Buffer.byteLength(text), termFreq: {}, literals: [], symbols: [], mentions: [], hits: [], sources: ['neighbour'] };
}
