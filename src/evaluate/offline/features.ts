import { fileKindOf, mayDefine, type FileKind } from '../../core/files.js';
import { isPairTerm, termsWithPairs, tokenize, wholeTerm } from '../../core/text.js';
import type { Candidate, FileFacts, Query, SearchStats } from '../../core/types.js';
import { isDefinitionLine } from '../../core/definitions.js';
import { own } from '../../core/records.js';
import { scopeShare } from './scope.js';

/** BM25 constants: the usual values; tuning them did not help on real tasks. */
const K1 = 1.2;
const B = 0.75;
/** Pseudo term frequencies a term earns by standing in the path or in a defined name (BM25F fields). */
const FIELD_TF = { basename: 2.5, directory: 1, definedName: 1.5 } as const;

/** Demotion by file kind: docs, tests, examples and generated files rank below source. */
export const KIND_FACTOR: Record<FileKind, number> = {
  code: 1,
  test: 0.45,
  example: 0.5,
  doc: 0.3,
  generated: 0.3,
  config: 0.6,
  data: 0.4,
  tooling: 0.35,
  /** Issue and pull-request forms: their words are every task's scaffolding (core/files.ts). */
  form: 0.05,
  declaration: 0.6,
};

export interface Features {
  kind: FileKind;
  /** Field-weighted BM25 over the plan's keywords. */
  lexical: number;
  /** Share of the plan's idf-weighted keyword mass the file matches (0–1). */
  coverage: number;
  /** Plan symbols this file defines or assigns. */
  defines: string[];
  /** Path-mention strength (segments matched, shared among files matching the same mention). */
  mention: number;
  /** Plan literals found here, weighted by rarity. */
  literal: number;
  /** Keywords matched, heaviest first. */
  matched: string[];
  /** Lines that define a plan symbol. */
  definitionLines: number[];
  /** Source that defines nothing and only imports or re-exports (`export { x } from './x'`): a pointer to the files that do. */
  barrel: boolean;
  /** In third-party code bundled under the repository's own tree (`bundled.ts`). */
  bundled: boolean;
  /** Share of the title's scope (`fix(dev-server): …`) the path holds (`scope.ts`), 0–1. */
  scope: number;
  /** A commit the task names changed the file: 1 / √(files that commit changed), for the commit of fewest. */
  commit: number;
}

export interface FeatureContext {
  plan: Query;
  /** This cycle's query: the plan plus refinements (extra keywords, gap symbols). */
  query: Query;
  stats: SearchStats;
  facts: Map<string, FileFacts>;
  /** Literal → number of candidates containing it. */
  literalCounts: Map<string, number>;
  /** Mention → number of candidates matching it. */
  mentionCounts: Map<string, number>;
  /** Whether a path lies in bundled third-party code (`bundled.ts`); none: no file does. */
  bundled?: (path: string) => boolean;
  /** Whether a path lies under the repository's maintenance scripts (`maintenance.ts`): such code ranks as tooling. */
  maintenance?: (path: string) => boolean;
  /** The title's scope (`titleScope`); none or empty: the title names no place. */
  scope?: readonly string[][];
}

export function idfOf(term: string, stats: SearchStats): number {
  const n = Math.max(stats.totalFiles, 1);
  const df = Math.min(own(stats.docFreq, term) ?? 0, n);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

export function computeFeatures(candidate: Candidate, ctx: FeatureContext): Features {
  const { plan, query, stats } = ctx;
  const facts = ctx.facts.get(candidate.path);
  const base = candidate.path.slice(candidate.path.lastIndexOf('/') + 1);
  const baseName = base.replace(/\.[^.]+$/, '');
  const baseTerms = new Set(termsWithPairs(baseName));
  const dirTerms = new Set(tokenize(candidate.path.slice(0, candidate.path.length - base.length)));
  const defTerms = new Set(facts ? facts.defs.flatMap((d) => termsWithPairs(d.name)) : []);
  const lengthNorm = 1 - B + B * (candidate.size / Math.max(stats.avgSize, 1));

  let lexical = 0;
  let matchedMass = 0;
  let totalMass = 0;
  const matched: Array<{ term: string; mass: number }> = [];
  // Scored against the task's own terms only: terms refine borrows from the best files find
  // their callers, but scoring with them would let those files vote for themselves.
  for (const term of plan.keywords) {
    const weight = own(plan.weights, term) ?? 0.2;
    const pair = isPairTerm(term);
    const idf = pair ? pairIdf(term, stats) : idfOf(term, stats);
    // a pair's words are keywords of their own: found together it adds, missing it takes nothing away
    if (!pair) totalMass += weight * idf;
    let tf = own(candidate.termFreq, term) ?? 0;
    if (baseTerms.has(term)) tf += FIELD_TF.basename;
    else if (dirTerms.has(term)) tf += FIELD_TF.directory;
    if (defTerms.has(term)) tf += FIELD_TF.definedName;
    if (tf <= 0) continue;
    const mass = weight * idf;
    lexical += (mass * (tf * (K1 + 1))) / (tf + K1 * lengthNorm);
    // coverage stays the share of the task's words found: a pair adds to the match, not to it
    if (!pair) matchedMass += mass;
    matched.push({ term, mass });
  }

  const { defines, definitionLines } = findDefinitions(candidate, query.symbols, facts);

  let mention = 0;
  // Only what the task itself names counts as a mention; paths refine added (followed imports)
  // earn the neighbour bonus instead.
  const named = new Set(plan.paths);
  for (const m of candidate.mentions) {
    if (!named.has(m)) continue;
    const segments = Math.min(m.split('/').length, 4);
    const sharers = ctx.mentionCounts.get(m) ?? 1;
    mention = Math.max(mention, (0.5 + segments / 4) / Math.sqrt(sharers));
  }

  let literal = 0;
  for (const l of candidate.literals) {
    const count = ctx.literalCounts.get(l) ?? 1;
    literal += count <= 5 ? 1 : 5 / count;
  }

  return {
    kind: kindOf(candidate, ctx.maintenance),
    lexical,
    coverage: totalMass > 0 ? matchedMass / totalMass : 0,
    defines,
    mention,
    literal,
    matched: matched.sort((a, b) => b.mass - a.mass).map((m) => m.term),
    definitionLines,
    barrel: facts !== undefined && facts.defs.length === 0 && facts.imports.length > 0,
    bundled: ctx.bundled?.(candidate.path) ?? false,
    scope: ctx.scope ? scopeShare(candidate.path, ctx.scope) : 0,
    commit: Math.max(0, ...(candidate.commits ?? []).map((c) => 1 / Math.sqrt(Math.max(1, c.files)))),
  };
}

/**
 * A pair's idf: its own, but no more than its commoner word's (as proximity weights are taken in
 * BM25 with term proximity): rare as the compound is, it says where two task words meet, and
 * its weight must not let one such name outweigh every word of the task.
 */
function pairIdf(term: string, stats: SearchStats): number {
  return Math.min(idfOf(term, stats), ...term.split(' ').map((word) => idfOf(word, stats)));
}

/** The file's kind by its path, or generated when its first lines say so, or tooling among the maintenance scripts (source by its path only). */
function kindOf(candidate: Candidate, maintenance?: (path: string) => boolean): FileKind {
  const kind = fileKindOf(candidate.path);
  if (candidate.generated && (kind === 'code' || kind === 'declaration')) return 'generated';
  return kind === 'code' && maintenance?.(candidate.path) ? 'tooling' : kind;
}

/** Query symbols the file defines: from parsed facts, and from its hit lines. */
function findDefinitions(candidate: Candidate, symbols: string[], facts: FileFacts | undefined): { defines: string[]; definitionLines: number[] } {
  const defines = new Set<string>();
  const definitionLines: number[] = [];
  const wanted = new Map(symbols.map((s) => [wholeTerm(s), s]));
  if (facts) {
    for (const def of facts.defs) {
      const symbol = wanted.get(wholeTerm(def.name));
      if (symbol && def.name === symbol) {
        defines.add(symbol);
        definitionLines.push(def.start);
      }
    }
  }
  // a line read alone defines nothing in prose, or in text of a format not known
  for (const hit of mayDefine(candidate.path) ? candidate.hits : []) {
    for (const symbol of symbols) {
      if (hit.text.includes(symbol) && isDefinitionLine(hit.text, symbol)) {
        defines.add(symbol);
        definitionLines.push(hit.line);
      }
    }
  }
  return { defines: [...defines], definitionLines: [...new Set(definitionLines)].sort((a, b) => a - b) };
}
