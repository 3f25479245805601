/**
 * The ignore rules a root inherits from above it: when the root is a directory inside a git
 * worktree (a package of a monorepo, `src/`), the `.gitignore` files of the directories between
 * the worktree's top and the root, and the top's `.git/info/exclude`, apply to it as they do in
 * git. rg applies no ignore file above the root (`--no-ignore-parent`: a `.gitignore` of `*` in a
 * home directory would hide everything), so these are applied to the listing here; the content
 * scan's results are filtered through the listing.
 *
 * Not read: ignore files above the worktree's top, the user's global excludes, and any rule when
 * the root itself is ignored from above (whoever points ctxloop at an ignored directory wants it
 * searched). A negation in the root's own `.gitignore` re-includes what a parent's rule ignores,
 * as in git; one in a `.gitignore` below the root does not.
 */
import { lstat, realpath } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { toPosix } from '../core/files.js';
import { throwIfAborted } from '../core/errors.js';
import { compileIgnoreRules, notAppliedRules, readIgnoreFiles } from './ignore.js';

/**
 * Rule tests (rules × paths) the filter does at most: about 2 s. Past it, only directories are
 * tested (a file under an ignored one goes with it), and past that too, nothing: 2,000 rules
 * above a root of 100,000 files took 23 s, deaf to Ctrl-C.
 */
export const MAX_RULE_TESTS = 20_000_000;
/** Paths tested between two looks at the signal (and turns of the event loop). */
const CHUNK = 2_000;

/** The rules above a root, as `parentIgnores` finds them. */
export interface ParentRules {
  /** The worktree's top they come from. */
  top: string;
  /** Whether a root-relative path (a directory when it ends with `/`) is ignored by them. */
  ignores(path: string): boolean;
  /** Rules applied. */
  rules: number;
  /** Rules not applied: past the bound (`MAX_RULES`), or `unsafe`. */
  dropped: number;
  /** Of `dropped`: too long, or matched in exponential time. */
  unsafe: number;
}

/**
 * The rules above `root`, or undefined when none apply (the root is no worktree's inner
 * directory, or nothing above it ignores anything).
 */
export async function parentIgnores(root: string): Promise<ParentRules | undefined> {
  const realRoot = await realpath(root).catch(() => undefined);
  if (realRoot === undefined) return undefined;
  const top = await worktreeTop(realRoot);
  if (top === undefined || top === realRoot) return undefined;
  const inner = toPosix(relative(top, realRoot));
  const parts = inner.split('/');
  // the top's and every directory's down to the root's parent: rg reads the root's own
  const gitignores = parts.map((_, i) => (i === 0 ? '.gitignore' : `${parts.slice(0, i).join('/')}/.gitignore`));
  const read = await readIgnoreFiles(top, gitignores);
  if (read.files.length === 0) return undefined;
  const above = compileIgnoreRules(read);
  if (above.ignores(`${inner}/`)) return undefined;
  // The root's own rules come after, as in git: its `!keep.log` re-includes a file a parent's `*.log` ignores.
  const own = await readIgnoreFiles(top, [`${inner}/.gitignore`]);
  const withOwn = compileIgnoreRules({ files: [...read.files, ...own.files.filter((f) => f.dir === inner)], unread: read.unread });
  return {
    top,
    rules: above.count,
    dropped: above.dropped,
    unsafe: above.unsafe,
    ignores: (path) => {
      try {
        // rg listed it, so the root's rules (and those below it, which may re-include) keep it: only a parent's verdict can drop it
        return above.ignores(`${inner}/${path}`) && withOwn.ignores(`${inner}/${path}`);
      } catch {
        return false; // a name the `ignore` package cannot take as a path: git would list it
      }
    },
  };
}

/**
 * `files` without those `rules` ignore, tested a chunk at a time (the signal heard between),
 * within `MAX_RULE_TESTS`; `warn` says what was not applied.
 */
export async function filterIgnored(files: readonly string[], rules: ParentRules, warn: (message: string) => void, signal?: AbortSignal): Promise<string[]> {
  if (rules.dropped > 0) warn(`the ignore files above the root, up to ${rules.top}: ${notAppliedRules(rules.dropped, rules.unsafe)}`);
  const dirs = [...new Set(files.map(dirOf))];
  const byPath = rules.rules * files.length <= MAX_RULE_TESTS;
  if (!byPath && rules.rules * dirs.length > MAX_RULE_TESTS) {
    warn(`the ${rules.rules} rules of the ignore files above the root are too many to test on ${files.length} files: not applied (run from ${rules.top} to have them)`);
    return [...files];
  }
  if (!byPath) warn(`the ${rules.rules} rules of the ignore files above the root are too many to test on each of ${files.length} files: only their directory rules are applied (run from ${rules.top} to have them all)`);
  const ignoredDirs = new Set<string>();
  const kept: string[] = [];
  const tests = byPath ? files : dirs;
  for (let i = 0; i < tests.length; i += CHUNK) {
    if (i > 0) await new Promise((done) => setImmediate(done));
    throwIfAborted(signal);
    for (const path of tests.slice(i, i + CHUNK)) {
      if (byPath) {
        if (!rules.ignores(path)) kept.push(path);
      } else if (path !== '' && rules.ignores(`${path}/`)) ignoredDirs.add(path);
    }
  }
  // a directory under an ignored one is ignored too (`ignores` reads a path's parents): its own verdict says so
  return byPath ? kept : files.filter((path) => !ignoredDirs.has(dirOf(path)));
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

/** The nearest directory at or above `dir` holding `.git` (a directory, or a worktree's `gitdir:` file). */
async function worktreeTop(dir: string): Promise<string | undefined> {
  for (let current = dir; ; current = dirname(current)) {
    if (await lstat(join(current, '.git')).then(() => true, () => false)) return current;
    if (dirname(current) === current) return undefined;
  }
}
