/**
 * Glob matching of root-relative paths (picomatch, a segment at a time). Globs follow the gitignore habit ripgrep
 * also uses: a glob without a slash (`*.ts`, `legacy`) matches a name at any depth, and a glob
 * ending in a slash (`verify.ts/`, `build/`) matches directories only.
 */
import braces from 'braces';
import picomatch from 'picomatch';
import { UsageError } from '../core/errors.js';
import { globHazard } from '../core/glob-hazard.js';

export type PathMatcher = (path: string) => boolean;

export interface MatcherOptions {
  /** Case-insensitive (query patterns are hints from prose). */
  nocase?: boolean;
  /**
   * Also true when a parent directory matches, so `src/legacy` takes in what is inside it: an
   * exclude leaves it out, an include keeps it. Without it, a directory-only glob matches nothing.
   */
  matchParents?: boolean;
}

/** Time the matching of one list of globs may spend beyond `FAIR_MS` a path before it is given up as hostile. */
const MAX_SLOW_MS = 2_000;
/** What one match may fairly cost (sound globs take a few microseconds). */
const FAIR_MS = 0.05;

/**
 * A predicate true when the path matches any glob; false for an empty list. A glob `globHazard`
 * refuses is a usage error (the settings and the model's suggestions are checked before); so is
 * a list whose matching spends two seconds more than 50 µs a path (wildcards over many long names).
 */
export function createPathMatcher(globs: readonly string[], options: MatcherOptions = {}): PathMatcher {
  const cleaned = normalizeGlobs(globs);
  if (cleaned.length === 0) return () => false;
  for (const glob of cleaned) {
    const hazard = globHazard(glob);
    if (hazard) throw new UsageError('bad_option', `${shownGlob(glob)}: ${hazard}`);
  }
  const nocase = options.nocase ?? false;
  const isFile = matcherOf(cleaned.filter((g) => !g.endsWith('/')), nocase);
  const isDir = options.matchParents ? matcherOf(cleaned.map((g) => g.replace(/\/$/, '')), nocase) : undefined;
  const matches: PathMatcher = (path) => {
    const segments = path.split('/');
    return isFile(segments, false) || (isDir !== undefined && isDir(segments, true));
  };
  // timed a path at a time (its directories with it): a clock read per directory cost a quarter of the matching
  let spentMs = 0;
  let calls = 0;
  return (path) => {
    const started = performance.now();
    const matched = matches(path);
    spentMs += performance.now() - started;
    calls++;
    // microseconds a path when the globs are sound, however many paths; milliseconds when they backtrack
    if (spentMs > MAX_SLOW_MS + calls * FAIR_MS) {
      throw new UsageError('bad_option', `matching the globs ${cleaned.slice(0, 3).map(shownGlob).join(', ')}${cleaned.length > 3 ? ', …' : ''} took over ${MAX_SLOW_MS / 1000} s: a glob with several * backtracks on long names; write it with fewer`);
    }
    return matched;
  };
}

/** A glob as a message shows it: quoted, cut. */
function shownGlob(glob: string): string {
  return JSON.stringify(glob.length > 60 ? `${glob.slice(0, 59)}…` : glob);
}

/** Whether the segments of a path (`false`), or one of its parent directories (`true`), match. */
type SegmentsMatcher = (segments: readonly string[], parents: boolean) => boolean;

/** Alternatives a glob's braces may expand to when they hold a slash (`{src,lib/core}/**`). */
const MAX_EXPANSIONS = 64;

/**
 * Globs matched a path segment at a time: a glob without a slash against each name, one with
 * slashes as a sequence of segment patterns where `**` stands for any number of segments, run
 * over the path's segments as a state machine. picomatch, given a whole path, compiles a glob to
 * one regex that backtracks over every way its `**` and `*` can split the path: one exclude in a
 * repository's config (seven `**` segments between `a` segments, or two `*a*` segments between
 * `**`) over a path 80 directories deep ran for minutes, deaf to Ctrl-C. Here picomatch sees one name at a time (no
 * slash to split on, a few `*` at most), so a path costs its depth times the glob's segments.
 */
function matcherOf(globs: readonly string[], nocase: boolean): SegmentsMatcher {
  // A leading `/` anchors a glob at the root, as in .gitignore and rg (`/build` is not `src/build`).
  const named = globs.filter((g) => g !== '' && !g.includes('/')).map(asPicomatch);
  const pathed = globs.filter((g) => g.includes('/')).flatMap((g) => expandSlashBraces(g.replace(/^\/+/, '')));
  const byName = named.length > 0 ? memoized(picomatch(named, { dot: true, nocase })) : undefined;
  const sequences = pathed.map((g) => g.split('/').filter((part) => part !== '').map((part) => (part === '**' ? GLOBSTAR : memoized(picomatch(asPicomatch(part), { dot: true, nocase })))));
  return (segments, parents) => {
    if (byName) {
      if (!parents && byName(segments[segments.length - 1]!)) return true;
      if (parents) for (let i = 0; i < segments.length - 1; i++) if (byName(segments[i]!)) return true;
    }
    return sequences.some((sequence) => matchSequence(sequence, segments, parents));
  };
}

const GLOBSTAR = Symbol('**');
type Part = typeof GLOBSTAR | ((segment: string) => boolean);

/** A segment pattern's answers kept by name: a repository's directory names repeat on every path below them. */
function memoized(test: (segment: string) => boolean): (segment: string) => boolean {
  const seen = new Map<string, boolean>();
  return (segment) => {
    let found = seen.get(segment);
    if (found === undefined) {
      if (seen.size >= 10_000) seen.clear();
      found = test(segment);
      seen.set(segment, found);
    }
    return found;
  };
}

/** The glob's parts in force before the next segment: a `**` may stand for none, so the parts after it are too. */
function closure(parts: readonly Part[], states: Set<number>): Set<number> {
  for (const state of states) if (parts[state] === GLOBSTAR) states.add(state + 1);
  return states;
}

/**
 * Whether `parts` match all of `segments` (or, with `parents`, the first k of them for some k
 * short of all: a directory above the file). Linear: each segment moves a set of positions in
 * the glob one step.
 */
function matchSequence(parts: readonly Part[], segments: readonly string[], parents: boolean): boolean {
  let states = closure(parts, new Set([0]));
  for (let k = 0; k < segments.length; k++) {
    const next = new Set<number>();
    for (const state of states) {
      const part = parts[state];
      if (part === undefined) continue;
      if (part === GLOBSTAR) next.add(state);
      else if (part(segments[k]!)) next.add(state + 1);
    }
    states = closure(parts, next);
    if (states.size === 0) return false;
    if (parents && k < segments.length - 1 && states.has(parts.length)) return true;
  }
  return !parents && states.has(parts.length);
}

/**
 * A glob whose braces hold a slash, expanded (`{src,lib/core}/**` → `src/**`, `lib/core/**`): a
 * segment cannot hold an alternative that spans two. Braces without a slash stay for picomatch.
 */
function expandSlashBraces(glob: string): string[] {
  const groups = glob.match(/(?<!\\)\{[^{}]*\}/g) ?? [];
  if (!groups.some((group) => group.includes('/'))) return [glob];
  let count = 1;
  for (const group of groups) {
    const range = /^\{(-?\w+)\.\.(-?\w+)(?:\.\.-?\d+)?\}$/.exec(group);
    const numbers = range ? [Number(range[1]), Number(range[2])] : undefined;
    count *= numbers && numbers.every(Number.isFinite) ? Math.abs(numbers[1]! - numbers[0]!) + 1 : range ? 26 : group.split(',').length;
  }
  if (count > MAX_EXPANSIONS) throw new UsageError('bad_option', `${shownGlob(glob)}: a glob whose braces hold a slash may expand to at most ${MAX_EXPANSIONS} paths (this one to ${count.toLocaleString('en-US')})`);
  return braces.expand(glob);
}

/**
 * `./src//` → `src/`: the forms people type for a glob. A trailing slash (one) is kept: it says
 * the glob matches directories only.
 */
export function normalizeGlob(glob: string): string {
  return glob.trim().replace(/^\.\/+/, '').replace(/\/+$/, '/');
}

/** The globs of a list normalized (`normalizeGlob`), those naming nothing (an empty one, `/`) left out. */
export function normalizeGlobs(globs: readonly string[]): string[] {
  return globs.map(normalizeGlob).filter((g) => g !== '' && g !== '/');
}

/**
 * The include glob `glob` (normalized) as rg globs: rg matches an include against files only,
 * where here a directory it matches takes in its files, so the directory's contents are added
 * (`src` is also given as `src` at any depth followed by `/**`; `lib/src/` only as `lib/src/**`).
 */
export function includeForRg(glob: string): string[] {
  const dirOnly = glob.endsWith('/');
  const body = dirOnly ? glob.slice(0, -1) : glob;
  const inside = body.includes('/') ? `${body}/**` : `**/${body}/**`;
  return dirOnly ? [inside] : [body, inside];
}

/**
 * A glob as rg reads it, for picomatch: `[!a]` is a negated class in rg and .gitignore, and
 * two characters of a class in picomatch 4 (`[!s]*.ts` matched `s.ts`); `[^a]` is the same in both.
 */
function asPicomatch(glob: string): string {
  return glob.replace(/(?<!\\)\[!/g, '[^');
}
