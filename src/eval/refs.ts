import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from './git.js';

const STRAY_HEADS = ['ORIG_HEAD', 'FETCH_HEAD', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'AUTO_MERGE'];

/**
 * Leaves only the detached HEAD: branches, tags, remotes, notes, stash, packed-refs and reflogs go,
 * so nothing that reads git history (recency, churn, blame) can see commits after the base.
 */
export async function scrubRefs(cwd: string, gitDir: string): Promise<void> {
  await runGit(['reflog', 'expire', '--expire=now', '--expire-unreachable=now', '--all'], { cwd });
  await rm(join(gitDir, 'refs'), { recursive: true, force: true });
  // git only recognises a repository whose refs/ exists, with heads/ and tags/ as it creates them.
  await mkdir(join(gitDir, 'refs', 'heads'), { recursive: true });
  await mkdir(join(gitDir, 'refs', 'tags'), { recursive: true });
  await writeFile(join(gitDir, 'packed-refs'), '');
  await rm(join(gitDir, 'logs'), { recursive: true, force: true });
  await Promise.all(STRAY_HEADS.map((name) => rm(join(gitDir, name), { force: true })));
}
