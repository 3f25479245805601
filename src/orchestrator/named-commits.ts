/**
 * Files of the commits a task names (`commits.ts`): looked up with git while the first dispatch
 * runs, then joined to the pool, each marked with the commit and how many files it changed.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { HistoryReader } from '../core/deps.js';
import type { Candidate } from '../core/types.js';
import { commitMentions } from '../refine/commits.js';

/**
 * Files a named commit may have changed and still say where to look: a commit of more (a
 * refactoring, a release, a reformat) names no place in particular.
 */
export const MAX_COMMIT_FILES = 20;

export interface NamedCommit {
  hash: string;
  files: string[];
}

/** The commits `text` names that the repository holds, with the files under `root` each changed. */
export async function lookUpNamedCommits(text: string, root: string, history: HistoryReader | undefined, signal?: AbortSignal): Promise<NamedCommit[]> {
  const hashes = commitMentions(text);
  if (!history || hashes.length === 0) return [];
  const found = await Promise.all(hashes.map(async (hash) => ({ hash, files: await history.changedBy(root, hash, signal) })));
  return found.filter((c): c is NamedCommit => c.files !== undefined && c.files.length > 0 && c.files.length <= MAX_COMMIT_FILES);
}

/**
 * Marks the listed files the commits changed in the pool, adding those not found yet; returns
 * how many were added. A file outside the listing (deleted since, excluded, out of scope) is not.
 */
export async function addCommitFiles(pool: Map<string, Candidate>, commits: readonly NamedCommit[], listed: ReadonlySet<string>, root: string): Promise<number> {
  let added = 0;
  for (const commit of commits) {
    for (const path of commit.files) {
      if (!listed.has(path)) continue;
      let candidate = pool.get(path);
      if (!candidate) {
        const size = await stat(join(root, path)).then((s) => s.size, () => 0);
        candidate = { path, size, termFreq: {}, literals: [], symbols: [], mentions: [], hits: [], sources: [] };
        pool.set(path, candidate);
        added++;
      }
      if (!candidate.sources.includes('commit')) candidate.sources = [...candidate.sources, 'commit'];
      if (!candidate.commits?.some((c) => c.hash === commit.hash)) candidate.commits = [...(candidate.commits ?? []), { hash: commit.hash, files: commit.files.length }];
    }
  }
  return added;
}
