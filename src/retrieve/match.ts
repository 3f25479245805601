/**
 * Glob matching of root-relative paths (picomatch). Globs follow the gitignore habit ripgrep
 * also uses: a glob without a slash (`*.ts`, `legacy`) matches a name at any depth, and a glob
 * ending in a slash (`verify.ts/`, `build/`) matches directories only.
 */
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
  const isFile = matcherOf(cleaned.filter((g) => !g.endsWith('/')), options.nocase ?? false);
  const isDir = options.matchParents ? matcherOf(cleaned.map((g) => g.replace(/\/$/, '')), options.nocase ?? false) : undefined;
  const matches: PathMatcher = !isDir
    ? isFile
    : (path) => {
        if (isFile(path)) return true;
        for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
          if (isDir(path.slice(0, slash))) return true;
        }
        return false;
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

function matcherOf(globs: readonly string[], nocase: boolean): PathMatcher {
  // picomatch's `basename` option applies to every glob once set (4.x matches `src/lib/**`
  // against the base name only, so it never matches): the two kinds get one matcher each.
  // A leading `/` anchors a glob at the root, as in .gitignore and rg (`/build` is not
  // `src/build`); picomatch, given root-relative paths, needs it without the slash.
  const named = globs.filter((g) => g !== '' && !g.includes('/')).map(asPicomatch);
  const pathed = globs.filter((g) => g.includes('/')).map((g) => asPicomatch(g.replace(/^\/+/, '')));
  const byName = named.length > 0 ? picomatch(named, { dot: true, basename: true, nocase }) : () => false;
  const byPath = pathed.length > 0 ? picomatch(pathed, { dot: true, nocase }) : () => false;
  return (path) => byName(path) || byPath(path);
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
