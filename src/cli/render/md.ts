import { languageOf } from '../../core/files.js';
import type { FileResult, Region, RetrieveResult } from '../../core/types.js';

/** Candidates listed under the packed files: enough to show what nearly made it. */
const MAX_CANDIDATES = 10;
const MAX_TITLE = 120;

// Fence tags where our language id is not the one Markdown highlighters know.
const FENCE_TAGS: Record<string, string> = { docker: 'dockerfile', make: 'makefile', proto: 'protobuf', text: '' };

/**
 * The result as a context pack an LLM (or a person) can read: the task, then each packed file
 * with its score, reason and regions (with their code when `--with-content`), the candidates
 * that did not make it, the open gaps, and a footer with cycles and tokens.
 */
export function renderMarkdown(result: RetrieveResult): string {
  const blocks: string[] = [`# Context for: ${titleOf(result.task)}`, headerOf(result)];
  if (result.files.length === 0) blocks.push('No file reached the threshold; the best candidates are listed below.');
  for (const file of result.files) blocks.push(...renderFile(file));
  if (result.candidates.length > 0) blocks.push('## Candidates', renderCandidates(result));
  if (result.gaps.length > 0) blocks.push('## Gaps', result.gaps.map((gap) => `- ${gap}`).join('\n'));
  blocks.push('---', footerOf(result));
  return `${blocks.join('\n\n')}\n`;
}

function titleOf(task: string): string {
  const first = task.split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
  return first.length > MAX_TITLE ? `${first.slice(0, MAX_TITLE - 1)}…` : first;
}

function headerOf(result: RetrieveResult): string {
  const fallback = result.fallback ? ` (fallback: ${result.fallback.reason})` : '';
  const files = `${result.files.length} ${result.files.length === 1 ? 'file' : 'files'}`;
  const roots = result.roots ? `Roots: ${result.roots.map((r) => `${r.label} = \`${r.path}\``).join(', ')}` : `Root: \`${result.root}\``;
  return `${roots} · provider: ${result.provider}${fallback} · ${files}`;
}

function renderFile(file: FileResult): string[] {
  const blocks = [`## ${file.path} (score ${formatScore(file.score)})`];
  if (file.reason) blocks.push(file.reason);
  for (const region of file.regions) {
    blocks.push(`- ${describeRegion(region)}`);
    if (region.content !== undefined) blocks.push(fence(region.content, fenceTag(file.path)));
  }
  return blocks;
}

function describeRegion(region: Region): string {
  const lines = region.start === region.end ? `line ${region.start}` : `lines ${region.start}–${region.end}`;
  return region.symbol ? `${lines} (${region.symbol})` : lines;
}

/** A fence longer than any backtick run inside, so code containing ``` cannot close it early. */
function fence(content: string, tag: string): string {
  const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((run) => run.length));
  const bar = '`'.repeat(Math.max(3, longest + 1));
  return `${bar}${tag}\n${content.replace(/\n$/, '')}\n${bar}`;
}

function fenceTag(path: string): string {
  const language = languageOf(path);
  return FENCE_TAGS[language] ?? language;
}

function renderCandidates(result: RetrieveResult): string {
  const shown = result.candidates.slice(0, MAX_CANDIDATES).map((c) => `- ${c.path} (${formatScore(c.score)})`);
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
