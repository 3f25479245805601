import { describeRegion, renderPackedFile, shownPath, shownText } from '../../core/pack-text.js';
import type { CutRegion, RetrieveResult } from '../../core/types.js';

/** Candidates listed under the packed files: enough to show what nearly made it. */
const MAX_CANDIDATES = 10;
const MAX_TITLE = 120;

/**
 * The result as a context pack an LLM (or a person) can read: the task, then each packed file
 * with its score, reason and regions (their code numbered, in fences tagged by language, when the
 * result has content), what the budget cut, the candidates that did not make it, the open gaps,
 * and a footer with cycles and tokens. The packed files' text is the one the budget counted.
 */
export function renderMarkdown(result: RetrieveResult): string {
  const blocks: string[] = [`# Context for: ${titleOf(result.task)}`, headerOf(result)];
  if (result.files.length === 0) blocks.push(emptyNote(result));
  for (const file of result.files) blocks.push(renderPackedFile(file));
  if (result.cut && result.cut.length > 0) blocks.push('## Cut for the budget', renderCut(result.cut));
  if (result.candidates.length > 0) blocks.push('## Candidates', renderCandidates(result));
  if (result.gaps.length > 0) blocks.push('## Gaps', result.gaps.map((gap) => `- ${shownText(gap)}`).join('\n'));
  blocks.push('---', footerOf(result));
  return `${blocks.join('\n\n')}\n`;
}

/** Why nothing was packed: the budget, the threshold, or nothing found at all. */
function emptyNote(result: RetrieveResult): string {
  if (result.cut && result.cut.length > 0) return 'No file fit the token budget; what it cut is listed below (raise --budget to have it).';
  if (result.candidates.length > 0) return 'No file reached the threshold; the best candidates are listed below.';
  return 'No file reached the threshold, and no candidate was found.';
}

function titleOf(task: string): string {
  const first = task.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
  return shownText(first.length > MAX_TITLE ? `${first.slice(0, MAX_TITLE - 1)}…` : first);
}

function headerOf(result: RetrieveResult): string {
  const fallback = result.fallback ? ` (fallback: ${result.fallback.reason})` : '';
  const files = `${result.files.length} ${result.files.length === 1 ? 'file' : 'files'}`;
  const roots = result.roots ? `Roots: ${result.roots.map((r) => `${shownPath(r.label)} = \`${shownPath(r.path)}\``).join(', ')}` : `Root: \`${shownPath(result.root)}\``;
  return `${roots} · provider: ${result.provider}${fallback} · ${files}`;
}

/** One line per region or file left out: where, and what it would have cost. */
function renderCut(cut: readonly CutRegion[]): string {
  return cut.map((item) => `- ${shownPath(item.path)} ${whereOf(item)}: ${item.tokens} tokens`).join('\n');
}

function whereOf({ start, end, symbol }: CutRegion): string {
  if (start === undefined || end === undefined) return '(whole file)';
  return describeRegion(symbol ? { start, end, symbol } : { start, end });
}

function renderCandidates(result: RetrieveResult): string {
  const shown = result.candidates.slice(0, MAX_CANDIDATES).map((c) => `- ${shownPath(c.path)} (${formatScore(c.score)})`);
  const rest = result.candidates.length - MAX_CANDIDATES;
  if (rest > 0) shown.push(`- … and ${rest} more`);
  return shown.join('\n');
}

function footerOf(result: RetrieveResult): string {
  const cycles = `${result.cycles.length} ${result.cycles.length === 1 ? 'cycle' : 'cycles'}`;
  const calls = result.usage.llmCalls > 0 ? ` · ${result.usage.llmCalls} LLM calls` : '';
  const sent = (result.egress ?? []).map((e) => ` · sent to ${e.provider}: ${e.files.length} ${e.files.length === 1 ? 'file' : 'files'}, ${e.bytes} bytes`).join('');
  return `${cycles} · ${result.tokens} tokens${calls}${sent}`;
}

export function formatScore(score: number): string {
  return score.toFixed(2);
}
