import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CtxloopError } from '../core/errors.js';

/**
 * Finds the mirror of `owner/name` under `reposDir`: `<owner>+<name>/repo`, `<owner>+<name>` or
 * `<owner>/<name>`, each either a bare git dir or a clone with `.git`.
 */
export async function locateMirror(reposDir: string, repo: string): Promise<string> {
  const [owner, name] = repo.split('/');
  const flat = `${owner}+${name}`;
  const places = [join(reposDir, flat, 'repo'), join(reposDir, flat), join(reposDir, owner ?? '', name ?? '')];
  for (const place of places) {
    if (await isRepository(place)) return place;
  }
  throw new CtxloopError('fs_error', `no mirror of ${repo} under ${reposDir} (looked for ${flat}/repo, ${flat} and ${owner}/${name})`);
}

/** A bare git dir (HEAD and objects/) or a clone (.git). */
export async function isRepository(dir: string): Promise<boolean> {
  if (await exists(join(dir, '.git'))) return true;
  return (await exists(join(dir, 'HEAD'))) && (await exists(join(dir, 'objects')));
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    // Absent or unreadable: either way not a place to clone from.
    return false;
  }
}
