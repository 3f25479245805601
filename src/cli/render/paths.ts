import { shownPath } from '../../core/pack-text.js';
import type { RetrieveResult } from '../../core/types.js';

/**
 * One packed file a line, best first (candidates are left out); nothing at all when no file made
 * it. On a terminal a name's control characters (an escape sequence it would run) show as
 * U+FFFD; a pipe gets the names as they are.
 */
export function renderPaths(result: RetrieveResult, to: { terminal: boolean } = { terminal: false }): string {
  return result.files.map((file) => `${to.terminal ? shownPath(file.path) : file.path}\n`).join('');
}
