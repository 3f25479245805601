/**
 * Third-party code copied into a repository under a name the built-in skips do not know
 * (`src/decNumber/`, `doc/sphinxext/`, `lib/lua/`): a directory that carries its own licence, or
 * is named for such code (`fmt/bundled/`), and has no package manifest. A licence says the code
 * is someone else's; a manifest beside it says it is a package of this repository (a monorepo's
 * `packages/zod/` has both `LICENSE` and `package.json`). Such code matches a task's words as
 * well as the project's own, and it is rarely what a task is about: it keeps less of its
 * evidence (`combine.ts`).
 */

/** `LICENSE`, `COPYING.txt`, `ICU-license.html`, `fmt.license.rst`, `license-MIT.md`: a licence by its name. */
const LICENCE = /^(?:[a-z0-9]+[-_.])?(?:licen[cs]e|copying|copyright)(?:[-_][a-z0-9]+)*(?:\.(?:txt|md|html?|rst))?$/i;

/**
 * Directories named for code copied in (`fmt/bundled/`, pip's `_vendor/`); `vendor` and
 * `third_party` are not searched at all, `3rdparty` and `external` rank as build output (`core/files.ts`).
 */
const BUNDLED_DIR = /^(?:bundled|vendored|_vendor|thirdparty|third-party|3rd[-_]party)$/i;

/** Files that make a directory a package of its own (a build of this repository's, not a copy of another's). */
const MANIFEST = /^(?:package\.json|deno\.jsonc?|jsr\.json|cargo\.toml|go\.mod|pyproject\.toml|setup\.py|setup\.cfg|pom\.xml|build\.gradle(?:\.kts)?|composer\.json|gemfile|package\.swift|mix\.exs|pubspec\.yaml|project\.toml|description|dune-project|build\.zig|[^/]+\.(?:gemspec|csproj|fsproj|vbproj|cabal|opam|nimble))$/i;

/** Documentation trees: a licence there is a page about the project's own (`docs/license.rst`), and docs rank low already. */
const DOCS = /(?:^|\/)(?:docs?|documentation|website|site)(?:\/|$)/i;

/** The largest share of the listing a bundled directory may hold. */
const MAX_SHARE = 0.25;

const known = new WeakMap<readonly string[], (path: string) => boolean>();

/**
 * Whether a path lies in bundled third-party code, judged on the listing (memoized per listing:
 * every cycle scores against the same one). The root's own licence marks nothing.
 */
export function bundledCodeOf(files: readonly string[]): (path: string) => boolean {
  let test = known.get(files);
  if (test) return test;
  const marked = new Set<string>();
  // licensed only (named ones are marked by name): those a manifest just above makes the project's own package
  const licensed = new Set<string>();
  const packaged = new Set<string>();
  for (const path of files) {
    const slash = path.lastIndexOf('/');
    const base = path.slice(slash + 1);
    const dir = slash < 0 ? '' : path.slice(0, slash);
    if (MANIFEST.test(base)) packaged.add(dir);
    // the root's manifest counts (for its packages); its licence and documentation trees mark nothing
    if (slash < 0 || DOCS.test(dir)) continue;
    if (BUNDLED_DIR.test(dir.slice(dir.lastIndexOf('/') + 1))) marked.add(dir);
    else if (LICENCE.test(base)) licensed.add(dir);
  }
  // `mypkg/LICENSE` beside the root's `pyproject.toml`: the project's package, its licence copied in
  for (const dir of licensed) if (!packaged.has(parentOf(dir))) marked.add(dir);
  const unpackaged = new Set([...marked].filter((dir) => !packaged.has(dir)));
  if (unpackaged.size === 0) test = () => false;
  else {
    // A directory holding much of the repository is the project itself, whatever its manifest
    // (one a .gitignore hides from the listing, as zod's generated `package.json` files are).
    const held = new Map<string, number>();
    for (const path of files) {
      forEachDir(path, (dir) => {
        if (unpackaged.has(dir)) held.set(dir, (held.get(dir) ?? 0) + 1);
      });
    }
    const bundled = new Set([...unpackaged].filter((dir) => (held.get(dir) ?? 0) <= files.length * MAX_SHARE));
    test = (path) => forEachDir(path, (dir) => bundled.has(dir));
  }
  known.set(files, test);
  return test;
}

/** The directory above `dir` ('' for the root). */
function parentOf(dir: string): string {
  const slash = dir.lastIndexOf('/');
  return slash < 0 ? '' : dir.slice(0, slash);
}

/** Calls `visit` with each directory above `path`, the shallowest first, until it returns true; whether one did. */
function forEachDir(path: string, visit: (dir: string) => boolean | void): boolean {
  for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) if (visit(path.slice(0, slash)) === true) return true;
  return false;
}
