/**
 * Where names are defined and called, through the searcher (one content search for a batch of
 * names) and parsed facts (which definition encloses a call, which names a body calls). Results
 * are remembered for the lookup's lifetime, so a walk never searches a name twice.
 */
import type { FactsReader, SearchRequest, SearchScope, Searcher } from '../core/deps.js';
import { isDefinitionLine } from '../core/definitions.js';
import { fileKindOf, type FileKind } from '../core/files.js';
import { KEYWORDS } from '../core/text.js';
import type { Candidate, DispatchResult, FileFacts, Query } from '../core/types.js';
import { countCalls, enclosingDefinition, findCallsIn, isCallable, isCallOf, siteOf, type CallSite, type DefSite } from './sites.js';

/** Prose and data name functions too (`step_two(y)` in a README): only code calls or defines them. */
export const PROSE_KINDS: ReadonlySet<FileKind> = new Set(['doc', 'data', 'form']);
/** Files one name search keeps (the searcher's `maxCandidates`). */
export const MAX_NAME_FILES = 400;
/** Files searched for the definition of a name that more than `MAX_NAME_FILES` files hold. */
const MAX_DEFINITION_FILES = 5_000;

/**
 * The code files a search capped at `MAX_NAME_FILES` left out, searched again up to
 * `MAX_DEFINITION_FILES`: a name called from more files than one search keeps may be defined in
 * one it left out (400 callers sort before `zz/def.ts`). Empty when the search was not capped.
 */
export async function searchLeftOut(searcher: Searcher, request: Omit<SearchRequest, 'maxCandidates'>, found: DispatchResult, signal: AbortSignal | undefined): Promise<{ candidates: Candidate[]; cut: boolean }> {
  if (found.candidates.length < MAX_NAME_FILES) return { candidates: [], cut: false };
  const seen = new Set(found.candidates.map((c) => c.path));
  const wide = await searcher.search({ ...request, maxCandidates: MAX_DEFINITION_FILES }, signal);
  return { candidates: wide.candidates.filter((c) => !seen.has(c.path) && !PROSE_KINDS.has(fileKindOf(c.path))), cut: wide.candidates.length >= MAX_DEFINITION_FILES };
}

export interface SymbolLookupOptions {
  scope: SearchScope;
  searcher: Searcher;
  facts: FactsReader;
  signal?: AbortSignal;
}

export interface NameSites {
  defs: DefSite[];
  calls: CallSite[];
  /** True when more than `MAX_DEFINITION_FILES` files hold the name and no definition was among those searched. */
  cut?: boolean;
}

export interface SymbolLookup {
  /** Definitions and call sites of each name (one search for all names not looked up before). */
  lookup(names: readonly string[]): Promise<Map<string, NameSites>>;
  /** Names a definition's body calls, with the first line calling each. */
  calleesOf(site: DefSite): Promise<Array<{ name: string; line: number }>>;
}

export function createSymbolLookup(options: SymbolLookupOptions): SymbolLookup {
  const { scope, searcher, facts, signal } = options;
  const known = new Map<string, NameSites>();
  const factsCache = new Map<string, FileFacts | undefined>();
  const lineCache = new Map<string, string[] | undefined>();

  const readFacts = async (files: string[]): Promise<void> => {
    const wanted = files.filter((f) => !factsCache.has(f));
    if (wanted.length === 0) return;
    const read = await facts.read(scope.root, wanted, signal);
    for (const file of wanted) factsCache.set(file, read.get(file));
  };
  const linesOf = async (file: string): Promise<string[] | undefined> => {
    if (!lineCache.has(file)) lineCache.set(file, (await facts.readText(scope.root, file))?.split('\n'));
    return lineCache.get(file);
  };

  return {
    async lookup(names) {
      const fresh = [...new Set(names)].filter((n) => !known.has(n));
      if (fresh.length > 0) {
        for (const name of fresh) known.set(name, { defs: [], calls: [] });
        const found = await searcher.search({ ...scope, query: symbolQuery(fresh), maxCandidates: MAX_NAME_FILES }, signal);
        // Only code calls or defines a name (`PROSE_KINDS`). Files whose lines only mention a name
        // (imports, comments) are not parsed at all.
        const files = found.candidates.filter((c) => !PROSE_KINDS.has(fileKindOf(c.path)) && c.hits.some((h) => h.terms.some((t) => fresh.includes(t) && (isCallOf(h.text, t) || isDefinitionLine(h.text, t)))));
        await readFacts(files.map((c) => c.path));
        for (const candidate of files) {
          const fileFacts = factsCache.get(candidate.path);
          if (!fileFacts || fileFacts.language === 'text') continue;
          for (const def of fileFacts.defs) if (candidate.symbols.includes(def.name) && isCallable(def)) known.get(def.name)!.defs.push(siteOf(candidate.path, def));
          for (const hit of candidate.hits) {
            for (const name of candidate.symbols) {
              if (!hit.terms.includes(name)) continue;
              const calls = countCalls(hit.text, name);
              if (!isCallOf(hit.text, name, calls)) continue;
              const caller = enclosingDefinition(candidate.path, fileFacts.defs, hit.line, fileFacts.lines);
              // A definition's own first line is not a call to it, unless the name stands there twice (`f() { return f(); }`).
              if (caller.symbol === name && caller.start === hit.line && calls < 2) continue;
              known.get(name)!.calls.push({ file: candidate.path, line: hit.line, caller });
            }
          }
        }
        // names defined nowhere the search kept: the files it left out, for definitions alone
        const undefinedNames = fresh.filter((name) => known.get(name)!.defs.length === 0);
        if (undefinedNames.length > 0) {
          // a file named after the name (`src/hub.ts` for `hub`, `Hub.java`) is kept first: with more
          // callers than the search keeps, it was left out with them
          const leftOut = await searchLeftOut(searcher, { ...scope, query: { ...symbolQuery(undefinedNames), paths: undefinedNames } }, found, signal);
          const defining = leftOut.candidates.filter((c) => c.hits.some((h) => h.terms.some((t) => undefinedNames.includes(t) && isDefinitionLine(h.text, t))));
          await readFacts(defining.map((c) => c.path));
          for (const candidate of defining) {
            const fileFacts = factsCache.get(candidate.path);
            if (!fileFacts || fileFacts.language === 'text') continue;
            for (const def of fileFacts.defs) if (undefinedNames.includes(def.name) && candidate.symbols.includes(def.name) && isCallable(def)) known.get(def.name)!.defs.push(siteOf(candidate.path, def));
          }
          if (leftOut.cut) for (const name of undefinedNames) if (known.get(name)!.defs.length === 0) known.get(name)!.cut = true;
        }
      }
      return new Map(names.map((n) => [n, known.get(n)!]));
    },

    async calleesOf(site) {
      if (site.kind === 'module') return [];
      await readFacts([site.file]);
      const fileFacts = factsCache.get(site.file);
      const lines = await linesOf(site.file);
      if (!fileFacts || !lines) return [];
      // The parser's call list has seen through comments and strings; without one, any name
      // before `(` that is not a keyword.
      const names = fileFacts.calls.length > 0 ? new Set(fileFacts.calls) : namesBeforeParen(lines.slice(site.start - 1, site.end));
      return findCallsIn(site, lines, names, fileFacts.defs);
    },
  };
}

function symbolQuery(symbols: string[]): Query {
  return { keywords: [], weights: {}, literals: [], symbols, paths: [], patterns: [], excludes: [], focusAreas: [] };
}

function namesBeforeParen(lines: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const line of lines) for (const m of line.matchAll(/([A-Za-z_$][\w$]*)\s*\(/g)) if (!KEYWORDS.has(m[1]!)) names.add(m[1]!);
  return names;
}
