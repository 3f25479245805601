/**
 * Glob matching of root-relative paths (picomatch). Globs follow the gitignore habit ripgrep
 * also uses: a glob without a slash (`*.ts`, `legacy`) matches a name at any depth.
 */
import picomatch from 'picomatch';

export type PathMatcher = (path: string) => boolean;

export interface MatcherOptions {
  /** Case-insensitive (query patterns are hints from prose). */
  nocase?: boolean;
  /** Also true when a parent directory matches, so `src/legacy` excludes what is inside it. */
  matchParents?: boolean;
}

/** A predicate true when the path matches any glob; false for an empty list. */
export function createPathMatcher(globs: readonly string[], options: MatcherOptions = {}): PathMatcher {
  const cleaned = globs.map(normalizeGlob).filter((g) => g !== '' && g !== '/');
  if (cleaned.length === 0) return () => false;
  // picomatch's `basename` option applies to every glob once set (4.x matches `src/lib/**`
  // against the base name only, so it never matches): the two kinds get one matcher each.
  // A leading `/` anchors a glob at the root, as in .gitignore and rg (`/build` is not
  // `src/build`); picomatch, given root-relative paths, needs it without the slash.
  const nocase = options.nocase ?? false;
  const named = cleaned.filter((g) => !g.includes('/')).map(asPicomatch);
  const pathed = cleaned.filter((g) => g.includes('/')).map((g) => asPicomatch(g.replace(/^\/+/, '')));
  const byName = named.length > 0 ? picomatch(named, { dot: true, basename: true, nocase }) : () => false;
  const byPath = pathed.length > 0 ? picomatch(pathed, { dot: true, nocase }) : () => false;
  const isMatch = (path: string): boolean => byName(path) || byPath(path);
  if (!options.matchParents) return (path) => isMatch(path);
  return (path) => {
    if (isMatch(path)) return true;
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      if (isMatch(path.slice(0, slash))) return true;
    }
    return false;
  };
}

/** `./src/` → `src`: the forms people type for a directory glob. */
export function normalizeGlob(glob: string): string {
  return glob.trim().replace(/^\.\/+/, '').replace(/\/+$/, '');
}

/**
 * A glob as rg reads it, for picomatch: `[!a]` is a negated class in rg and .gitignore, and
 * two characters of a class in picomatch 4 (`[!s]*.ts` matched `s.ts`); `[^a]` is the same in both.
 */
function asPicomatch(glob: string): string {
  return glob.replace(/(?<!\\)\[!/g, '[^');
}
