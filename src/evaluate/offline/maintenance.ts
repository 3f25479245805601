/**
 * A repository's maintenance scripts: the top-level directory it keeps them in (`scripts/`,
 * `tools/`, `hack/`, `ci/`) when that directory is a small part of the repository. They build,
 * release, test and generate the project; they share its words (sentry-python's `scripts/` name
 * every integration, rxjs's `tools/` its bundles) and are seldom what a task is about. A
 * directory of that name holding much of the repository is a product of its own (go-zero's
 * `tools/goctl`, a third of its files): its files stay code.
 */

/** Top-level directory names repositories keep their maintenance scripts under. */
const MAINTENANCE_DIR = /^(?:scripts?|tools?|hack|ci|build[-_]?(?:tools|scripts)|dev[-_]?(?:tools|scripts))$/i;

/** The largest share of the listing such a directory may hold and still be scripts. */
const MAX_SHARE = 0.1;

const known = new WeakMap<readonly string[], (path: string) => boolean>();

/** Whether a path lies under the repository's maintenance scripts, judged on the listing (memoized per listing). */
export function maintenanceScriptsOf(files: readonly string[]): (path: string) => boolean {
  let test = known.get(files);
  if (test) return test;
  const held = new Map<string, number>();
  for (const path of files) {
    const slash = path.indexOf('/');
    if (slash <= 0) continue;
    const top = path.slice(0, slash);
    if (MAINTENANCE_DIR.test(top)) held.set(top, (held.get(top) ?? 0) + 1);
  }
  const dirs = new Set([...held].filter(([, count]) => count <= MAX_SHARE * files.length).map(([dir]) => dir));
  test = dirs.size === 0 ? () => false : (path: string) => dirs.has(path.slice(0, Math.max(path.indexOf('/'), 0)));
  known.set(files, test);
  return test;
}
