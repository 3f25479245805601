import { isDefinitionLine } from '../core/definitions.js';
import { DEFAULTS } from '../core/options.js';
import { identifierTerms, wholeTerm } from '../core/text.js';
import type { Candidate, FileFacts, Gap, Query, Score } from '../core/types.js';
import { own } from '../core/records.js';

/** Weight of terms borrowed from what the strongest files define: enough to find their callers, too little to steer. */
const BORROWED_WEIGHT = 0.15;
const MAX_BORROWED = 8;
const MAX_NEW_SYMBOLS = 12;
/** The head of the ranking a cycle must move to be worth another: what a reader of the result looks at first. */
const SETTLED_HEAD = 5;

export interface RefineInput {
  plan: Query;
  /** The query just dispatched. */
  query: Query;
  scores: Score[];
  /** The scores of the cycle before, when there was one. */
  previous?: Score[];
  pool: ReadonlyMap<string, Candidate>;
  facts: ReadonlyMap<string, FileFacts>;
  threshold: number;
  cycle: number;
  maxCycles: number;
  /** Gaps open before this cycle (to tell which closed). */
  openGaps: Gap[];
}

export interface RefineResult {
  next: Query;
  /** Gaps still open after this cycle. */
  gaps: Gap[];
  /** Gaps this cycle closed (for the trace). */
  closed: Gap[];
  stop: boolean;
  why: string;
  /**
   * The keywords `next` borrowed from the strongest files' names (pseudo-relevance feedback), and
   * where the next dispatch counts them (`SearchRequest.near`); none when nothing was borrowed or
   * a strong file lies at the root.
   */
  near?: { keywords: string[]; paths: string[] };
}

/**
 * Scores + evidence → the next query. Gaps are computed, not guessed: a symbol a strong file calls
 * that no retrieved file defines, an import not followed, a path the task names that no file
 * matched. Each open gap becomes a targeted search (a definition search, a path lookup).
 */
export function refineQuery(input: RefineInput): RefineResult {
  const { plan, query, scores, pool, threshold } = input;
  const ranked = [...scores].sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1));
  const gaps = collectGaps(input, ranked);
  const closed = input.openGaps.filter((g) => !gaps.some((o) => o.kind === g.kind && o.target === g.target) && isClosed(g, pool));

  const symbols = unique([...query.symbols, ...gaps.filter((g) => g.kind === 'symbol').map((g) => g.target)]).slice(0, plan.symbols.length + MAX_NEW_SYMBOLS);
  const paths = unique([...query.paths, ...gaps.filter((g) => g.kind === 'import').map((g) => g.target)]);
  const borrowed = borrowTerms(ranked.slice(0, 2).filter((s) => s.relevance >= threshold), input.facts, query);
  const weights = { ...query.weights };
  for (const term of borrowed) weights[term] = BORROWED_WEIGHT;
  const excludes = ranked.filter((s) => s.relevance < DEFAULTS.excludeBelow).map((s) => s.path);
  const nearPaths = borrowed.length > 0 ? nearDirs(ranked) : [];
  const near = nearPaths.length > 0 ? { near: { keywords: borrowed, paths: nearPaths } } : {};

  const next: Query = {
    ...query,
    keywords: [...query.keywords, ...borrowed],
    weights,
    symbols,
    paths,
    excludes: unique([...query.excludes, ...excludes]),
    focusAreas: unique(ranked.filter((s) => s.relevance >= threshold).map((s) => dirOf(s.path))).slice(0, 5),
  };

  const kept = ranked.filter((s) => s.relevance >= threshold).length;
  const critical = gaps.filter((g) => g.kind !== 'symbol' || g.from !== undefined);
  const newLeads = symbols.length > query.symbols.length || paths.length > query.paths.length || borrowed.length > 0;
  const result = { next, gaps, closed, ...near };
  if (input.cycle >= input.maxCycles) return { ...result, stop: true, why: 'max cycles reached' };
  if (kept >= DEFAULTS.enoughFiles && critical.length === 0) return { ...result, stop: true, why: `${kept} files ≥ threshold, no critical gap` };
  if (!newLeads) return { ...result, stop: true, why: 'no new leads' };
  // A refined search that moved neither the head of the ranking nor which files pass drew its
  // leads from the same files as the one before: the next would mostly search what this one did.
  if (input.previous && input.previous.length > 0 && settled(input.previous, ranked, threshold)) return { ...result, stop: true, why: 'the last search changed no leading file' };
  return { ...result, stop: false, why: `${critical.length} gaps to search` };
}

/** The same files lead, in the same order, and the same files reach the threshold. */
function settled(previous: readonly Score[], ranked: readonly Score[], threshold: number): boolean {
  const before = [...previous].sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1));
  const head = (list: readonly Score[]): string => list.slice(0, SETTLED_HEAD).map((s) => s.path).join('\n');
  const passing = (list: readonly Score[]): string => list.filter((s) => s.relevance >= threshold).map((s) => s.path).sort().join('\n');
  return head(before) === head(ranked) && passing(before) === passing(ranked);
}

function collectGaps(input: RefineInput, ranked: Score[]): Gap[] {
  const { plan, pool } = input;
  const gaps: Gap[] = [];
  for (const score of ranked.slice(0, 5)) {
    for (const item of score.missing) {
      const match = /^(symbol|import|path|literal):(.+)$/.exec(item);
      if (!match) continue;
      const kind = match[1] as Gap['kind'];
      const target = match[2]!;
      if (isClosed({ kind, target, question: '' }, pool)) continue;
      gaps.push({ kind, target, from: score.path, question: questionFor(kind, target, score.path) });
    }
  }
  for (const path of plan.paths) {
    const gap: Gap = { kind: 'path', target: path, question: `${path} is named in the task but no file matches it` };
    if (!isClosed(gap, pool)) gaps.push(gap);
  }
  for (const symbol of plan.symbols) {
    const gap: Gap = { kind: 'symbol', target: symbol, question: `where is ${symbol} defined?` };
    if ((own(plan.weights, wholeTerm(symbol)) ?? 0) >= 0.9 && !isClosed(gap, pool)) gaps.push(gap);
  }
  return uniqueBy(gaps, (g) => `${g.kind}:${g.target}`);
}

function isClosed(gap: Gap, pool: ReadonlyMap<string, Candidate>): boolean {
  switch (gap.kind) {
    case 'import':
      return pool.has(gap.target);
    case 'path':
      return [...pool.values()].some((c) => c.mentions.includes(gap.target));
    case 'literal':
      return [...pool.values()].some((c) => c.literals.includes(gap.target));
    case 'symbol':
      return [...pool.values()].some((c) => c.hits.some((h) => isDefinitionLine(h.text, gap.target)));
  }
}

function questionFor(kind: Gap['kind'], target: string, from: string): string {
  if (kind === 'symbol') return `where is ${target} defined? (called in ${from})`;
  if (kind === 'import') return `${target} (imported by ${from}) not retrieved yet`;
  return `${target} (from ${from}) not found`;
}

/** Terms of the names the strongest files define that the query lacks (pseudo-relevance feedback). */
function borrowTerms(top: Score[], facts: ReadonlyMap<string, FileFacts>, query: Query): string[] {
  const have = new Set(query.keywords);
  const counts = new Map<string, number>();
  for (const score of top) {
    for (const def of facts.get(score.path)?.defs ?? []) {
      const [whole] = identifierTerms(def.name);
      if (whole && whole.length >= 6 && !have.has(whole)) counts.set(whole, (counts.get(whole) ?? 0) + 1);
    }
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_BORROWED)
    .map(([term]) => term);
}

/** Files whose surroundings a cycle's borrowed names are looked for in. */
const NEAR_FILES = 5;

/**
 * Where the names borrowed from the strongest files are looked for: the subtree above the
 * directory of each of the best files of `ranked` (`lib/` for `lib/helpers/buildURL.js`,
 * `packages/x/` for `packages/x/src/a.ts`), or its directory when that subtree would be the root.
 * None when a best file lies at the root: the whole scope is searched then.
 */
export function nearDirs(ranked: readonly Score[]): string[] {
  const dirs = new Set<string>();
  for (const { path } of ranked.slice(0, NEAR_FILES)) {
    const dir = dirOf(path);
    if (dir === '.') return [];
    const above = dirOf(dir);
    dirs.add(above === '.' ? dir : above);
  }
  // a directory inside another one listed is searched with it
  return [...dirs].filter((dir) => ![...dirs].some((other) => other !== dir && dir.startsWith(`${other}/`))).sort();
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function uniqueBy<T>(values: T[], key: (v: T) => string): T[] {
  const seen = new Set<string>();
  return values.filter((v) => (seen.has(key(v)) ? false : (seen.add(key(v)), true)));
}
