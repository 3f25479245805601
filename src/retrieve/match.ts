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
  const cleaned = globs.map(normalizeGlob).filter((g) => g !== '');
  if (cleaned.length === 0) return () => false;
  const isMatch = picomatch(cleaned, { dot: true, basename: true, nocase: options.nocase ?? false });
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
