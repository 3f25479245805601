import type { RetrieveResult } from '../../core/types.js';

/** One packed file a line, best first (candidates are left out); nothing at all when no file made it. */
export function renderPaths(result: RetrieveResult): string {
  return result.files.map((file) => `${file.path}\n`).join('');
}
