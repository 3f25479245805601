/** Whether a path stays inside a root: the one check behind every confinement to the root. */
import { isAbsolute, sep } from 'node:path';

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
