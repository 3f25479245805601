/** Whether a path stays inside a root: the one check behind every confinement to the root. */
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';

/** `path` is `root` or lies below it; both absolute, and resolved alike (both real paths, or both as given). */
export function isInsideRoot(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * A relative path (what `path.relative` gives) that leads out of where it was taken from: `..`,
 * `../x`, or another drive. `..foo` is a name inside, not a way up.
 */
export function leavesRoot(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/**
 * Where a path really leads once it is made: the deepest part that exists with its links
 * followed, and the rest as written (`.c/sub/new`, with `.c/sub` a link out of the root, leads
 * out of the root though `new` does not exist yet).
 */
export async function realpathOfDeepest(path: string): Promise<string> {
  let missing = '';
  for (let at = path; ; at = dirname(at)) {
    const real = await realpath(at).catch(() => undefined);
    if (real !== undefined) return missing === '' ? real : join(real, missing);
    const parent = dirname(at);
    if (parent === at) return path;
    missing = missing === '' ? basename(at) : join(basename(at), missing);
  }
}
