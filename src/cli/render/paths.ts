import { quotedPath, shownPath } from '../../core/pack-text.js';
import type { RetrieveResult } from '../../core/types.js';

/**
 * One packed file a line, best first (candidates are left out); nothing at all when no file made
 * it. On a terminal a name's control characters (an escape sequence it would run) show as
 * U+FFFD; a pipe gets the names as they are, but for a name that would not stay one line (a line
 * break in it), written as git writes it: quoted, C escapes (and so a name starting with a quote).
 */
export function renderPaths(result: RetrieveResult, to: { terminal: boolean } = { terminal: false }): string {
  return result.files.map((file) => `${to.terminal ? shownPath(file.path) : quotedPath(file.path)}\n`).join('');
}
