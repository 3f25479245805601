import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CtxloopError } from '../core/errors.js';
import { runGit } from './git.js';
import { locateMirror } from './mirror.js';
import { scrubRefs } from './refs.js';
import { findMissingBlobs, writeSparsePatterns } from './sparse.js';

export interface CheckoutResult {
  /** Absolute root of the working tree, at the base commit. */
  root: string;
  /** The full hash of the base commit. */
  commit: string;
  /** Paths left out because the mirror lacks their blobs. */
  excluded: string[];
  /** True when the clone was made by this call (the first task of the repository). */
  cloned: boolean;
}

/**
 * A working tree of `repo` at `baseCommit`, with no ref but the detached HEAD. One clone per
 * repository (`<workDir>/<owner>+<name>`, sharing the mirror's objects) is made once and reused:
 * later tasks only move it (`checkout -f --detach`, `clean -fdq`).
 */
export async function prepareCheckout(reposDir: string, repo: string, baseCommit: string, workDir: string): Promise<CheckoutResult> {
  const root = join(workDir, repo.replace('/', '+'));
  const gitDir = join(root, '.git');
  let cloned = false;
  if (!(await isFile(join(gitDir, 'HEAD')))) {
    const mirror = await locateMirror(reposDir, repo);
    await createClone(mirror, root);
    cloned = true;
  } else if (!(await isOwnClone(root, gitDir))) {
    // Reusing it would force a checkout, clean it and delete every ref: someone's branches,
    // edits and untracked files.
    throw new CtxloopError('fs_error', `${root} is a git repository not made by ctxloop eval: move it away, or give another --work`);
  }
  const commit = await resolveCommit(root, repo, baseCommit);
  const excluded = await findMissingBlobs(root, commit);
  await writeSparsePatterns(gitDir, excluded);
  // A run killed mid-checkout leaves its lock behind; one work dir serves one run at a time.
  await rm(join(gitDir, 'index.lock'), { force: true });
  await runGit(['checkout', '-f', '-q', '--detach', commit], { cwd: root });
  await runGit(['clean', '-fdq'], { cwd: root });
  await scrubRefs(root, gitDir);
  return { root, commit, excluded, cloned };
}

/**
 * Clones beside the target and renames, so an interrupted clone never looks like a finished one.
 * A directory already there that is not a clone is someone's: refused, never replaced (it was
 * removed, with whatever a work dir given by mistake held under a mirror's name).
 */
async function createClone(mirror: string, root: string): Promise<void> {
  const temp = `${root}.partial-${process.pid}`;
  const there = await readdir(root).catch(() => undefined);
  if (there !== undefined && there.length > 0) {
    throw new CtxloopError('fs_error', `${root} exists and is not a clone made by ctxloop eval: move it away, or give another --work`);
  }
  await rm(temp, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
  await mkdir(join(root, '..'), { recursive: true });
  await runGit(['clone', '-q', '--shared', '--no-checkout', mirror, temp], { cwd: join(root, '..') });
  const settings: Array<[string, string]> = [
    ['core.logAllRefUpdates', 'false'],
    ['core.sparseCheckout', 'true'],
    ['core.sparseCheckoutCone', 'false'],
    // The objects live in the mirror: a gc here has nothing to gain and time to lose.
    ['gc.auto', '0'],
    ['advice.detachedHead', 'false'],
    [OWN_CLONE_KEY, 'true'],
  ];
  for (const [key, value] of settings) await runGit(['config', key, value], { cwd: temp });
  // Without a remote, a fetch cannot bring back the history after the base.
  await runGit(['remote', 'remove', 'origin'], { cwd: temp });
  await rename(temp, root);
}

/** Set in the config of every clone eval makes: the mark that it may reset, clean and scrub it. */
const OWN_CLONE_KEY = 'ctxloop.evalclone';

/**
 * Whether the repository at `root` is a clone eval made: marked so, or (made before the mark)
 * shaped as only eval makes them: objects borrowed from a mirror, no remote, sparse checkout and
 * gc off. Such an unmarked clone is marked now.
 */
async function isOwnClone(root: string, gitDir: string): Promise<boolean> {
  const setting = async (key: string) => (await runGit(['config', '--local', '--get', key], { cwd: root }).catch(() => '')).trim();
  if ((await setting(OWN_CLONE_KEY)) === 'true') return true;
  const shaped =
    (await isFile(join(gitDir, 'objects', 'info', 'alternates'))) &&
    (await runGit(['remote'], { cwd: root }).catch(() => 'unknown')).trim() === '' &&
    (await setting('core.sparseCheckout')) === 'true' &&
    (await setting('gc.auto')) === '0';
  if (shaped) await runGit(['config', OWN_CLONE_KEY, 'true'], { cwd: root });
  return shaped;
}

async function resolveCommit(root: string, repo: string, baseCommit: string): Promise<string> {
  try {
    return (await runGit(['rev-parse', '--verify', '-q', `${baseCommit}^{commit}`], { cwd: root })).trim();
  } catch (error) {
    throw new CtxloopError('fs_error', `base commit ${baseCommit} of ${repo} is not in its mirror (fetch the full history)`, { cause: error });
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    // Absent: the clone has yet to be made.
    return false;
  }
}
