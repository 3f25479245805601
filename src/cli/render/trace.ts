import type { TraceNode, TraceResult } from '../../core/types.js';
import { shownText } from '../../core/pack-text.js';
import { quotedPath } from '../../core/pack-text.js';

/** `trace --json`: the result as it is. */
export function renderTraceJson(result: TraceResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

/**
 * The call trees as indented text, one definition a line:
 * `parse_line  app/parse.py:1`, then `called by main  app/cli.py:3 (line 4)` below it.
 */
export function renderTraceText(result: TraceResult): string {
  if (result.definitions.length === 0) return `no definition of ${shownText(result.symbol)} found${result.truncated ? ' in the files searched: more hold the name than one search reads (narrow it with --scope)' : ''}\n`;
  const lines: string[] = [];
  const walk = (node: TraceNode, indent: string, label: string): void => {
    const call = node.callLine === undefined ? '' : ` (line ${node.callLine})`;
    const cycle = node.cycle_detected ? '  [cycle: already on this chain]' : '';
    lines.push(`${indent}${label}${node.symbol}  ${quotedPath(node.file)}:${node.line}${call}${cycle}`);
    for (const child of node.callers ?? []) walk(child, `${indent}  `, 'called by ');
    for (const child of node.callees ?? []) walk(child, `${indent}  `, 'calls ');
  };
  for (const root of result.definitions) walk(root, '', '');
  if (result.truncated) lines.push('(cut short: more callers or callees than shown; narrow with --direction or --depth)');
  // file names may hold escape sequences a terminal would run, and line breaks (quoted as git does)
  return `${shownText(lines.join('\n'))}\n`;
}
