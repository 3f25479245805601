/**
 * The ignore rules a root inherits from above it: when the root is a directory inside a git
 * worktree (a package of a monorepo, `src/`), the `.gitignore` files of the directories between
 * the worktree's top and the root, and the top's `.git/info/exclude`, apply to it as they do in
 * git. rg reads no ignore file above the root (`--no-ignore-parent`: a `.gitignore` of `*` in a
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
import { compileIgnoreRules, readIgnoreFiles } from './ignore.js';

/** Directories walked up at most looking for the worktree's top. */
const MAX_LEVELS = 64;

/**
 * Whether a root-relative path is ignored by the rules above `root`, or undefined when none
 * apply (the root is no worktree's inner directory, or nothing above it ignores anything).
 */
export async function parentIgnores(root: string): Promise<((path: string) => boolean) | undefined> {
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
  return (path) => {
    try {
      // rg listed it, so the root's rules (and those below it, which may re-include) keep it: only a parent's verdict can drop it
      return above.ignores(`${inner}/${path}`) && withOwn.ignores(`${inner}/${path}`);
    } catch {
      return false; // a name the \`ignore\` package cannot take as a path: git would list it
    }
  };
}

/** The nearest directory at or above `dir` holding `.git` (a directory, or a worktree's `gitdir:` file). */
async function worktreeTop(dir: string): Promise<string | undefined> {
  let current = dir;
  for (let level = 0; level < MAX_LEVELS; level++) {
    if (await lstat(join(current, '.git')).then(() => true, () => false)) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}
