/** One line saying why a file is a suspect, strongest evidence first. */
import type { StackFrame } from '../core/types.js';

export type Clue =
  | { kind: 'frame'; hop: number; frame: StackFrame; weight: number }
  | { kind: 'definition'; symbol: string; weight: number }
  | { kind: 'message'; message: string; weight: number }
  | { kind: 'history'; latest: number; changes: number; commits: number; weight: number };

const TRACE_NAMES: Partial<Record<StackFrame['format'], string>> = {
  python: 'traceback',
  pytest: 'pytest traceback',
  v8: 'stack',
  firefox: 'stack',
  jvm: 'stack trace',
  go: 'goroutine trace',
  rust: 'panic',
  sanitizer: 'sanitizer report',
  gdb: 'backtrace',
  valgrind: 'valgrind report',
  assert: 'assertion',
};

export function describeSuspect(clues: readonly Clue[], evidenced: boolean): string {
  const parts: string[] = [];
  const frames = clues.filter((c): c is Extract<Clue, { kind: 'frame' }> => c.kind === 'frame').sort((a, b) => b.weight - a.weight);
  const best = frames[0];
  if (best) {
    const where = best.hop === 0 ? 'the repository frame nearest the error' : `${best.hop} repository frame${best.hop === 1 ? '' : 's'} from the error`;
    const what = best.frame.format === 'location' ? `named at ${best.frame.file}:${best.frame.line ?? '?'}` : `${where} in the ${TRACE_NAMES[best.frame.format] ?? 'trace'}`;
    const at = [best.frame.line === undefined ? '' : `line ${best.frame.line}`, best.frame.symbol ? `in ${best.frame.symbol}` : ''].filter(Boolean).join(', ');
    parts.push(`${what}${at ? ` (${at})` : ''}${frames.length > 1 ? `, ${frames.length - 1} more frame${frames.length === 2 ? '' : 's'}` : ''}`);
  }
  const defined = [...new Set(clues.flatMap((c) => (c.kind === 'definition' ? [c.symbol] : [])))];
  if (defined.length > 0) parts.push(`defines ${defined.slice(0, 3).join(', ')} (named by a frame)`);
  const message = clues.find((c): c is Extract<Clue, { kind: 'message' }> => c.kind === 'message');
  if (message) parts.push(`holds the message "${message.message.length > 60 ? `${message.message.slice(0, 57)}...` : message.message}"`);
  const history = clues.find((c): c is Extract<Clue, { kind: 'history' }> => c.kind === 'history');
  if (history) {
    const when = history.latest === 0 ? 'changed in the latest commit' : `changed ${history.latest} commit${history.latest === 1 ? '' : 's'} ago`;
    parts.push(`${when}, in ${history.changes} of the last ${history.commits}`);
  }
  if (!evidenced) parts.unshift('no frame or message points into the repository; a recent hotspot');
  return parts.join('; ');
}
