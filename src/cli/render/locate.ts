import type { LocateResult } from '../../core/types.js';
import { shownText } from '../../core/pack-text.js';
import { quotedPath } from '../../core/pack-text.js';

/** `locate --json`: the result as it is. */
export function renderLocateJson(result: LocateResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

/** The suspects, best first: `1. app/parse.py:4 (parse_line)  0.97`, the reason indented below. */
export function renderLocateText(result: LocateResult): string {
  const lines: string[] = [];
  if (result.error) lines.push(`${result.error.type ? `${result.error.type}: ` : ''}${result.error.message}`);
  const mapped = result.frames.filter((f) => f.path !== undefined).length;
  lines.push(`${result.frames.length} frame${result.frames.length === 1 ? '' : 's'}, ${mapped} in the repository${result.historyCommits > 0 ? `, ${result.historyCommits} commits of history` : ''}`);
  if (result.candidates.length === 0) lines.push('no suspects: nothing in the error text points into the repository');
  result.candidates.forEach((c, i) => {
    const where = `${quotedPath(c.path)}${c.line === undefined ? '' : `:${c.line}`}${c.symbol ? ` (${c.symbol})` : ''}`;
    lines.push(`${i + 1}. ${where}  ${c.confidence.toFixed(2)}`, `   ${c.reason}`);
  });
  // file names and the error's own text may hold escape sequences a terminal would run
  return `${shownText(lines.join('\n'))}\n`;
}
