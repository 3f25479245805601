/**
 * The text of a context pack, file by file: what `--format md` prints for each packed file and
 * what the packer counts against the budget. One renderer for both, so the count is the output.
 */
import { languageOf } from './files.js';
import type { FileResult, Region } from './types.js';

// Fence tags where our language id is not the one Markdown highlighters know.
const FENCE_TAGS: Record<string, string> = { docker: 'dockerfile', make: 'makefile', proto: 'protobuf', text: '' };

/** Blocks of a pack are separated by one blank line. */
export const PACK_SEPARATOR = '\n\n';

/** The language tag of a file's fences (`typescript`, `python`, … or empty). */
export function fenceTagOf(path: string): string {
  const language = languageOf(path);
  return FENCE_TAGS[language] ?? language;
}

/** `## path (score 0.93)` and the reason: what precedes a file's regions. */
export function renderFileHeading(file: Pick<FileResult, 'path' | 'score' | 'reason'>): string {
  const title = `## ${file.path} (score ${file.score.toFixed(2)})`;
  return file.reason ? `${title}${PACK_SEPARATOR}${file.reason}` : title;
}

/** `lines 40–88 (verifyEmail)`, `line 7`. */
export function describeRegion(region: Pick<Region, 'start' | 'end' | 'symbol'>): string {
  const lines = region.start === region.end ? `line ${region.start}` : `lines ${region.start}–${region.end}`;
  return region.symbol ? `${lines} (${region.symbol})` : lines;
}

/**
 * One region: its label, then (when `content` is given) its lines numbered from `start` in a
 * fence tagged with the language. The fence is longer than any backtick run inside, so code
 * holding ``` cannot close it early.
 */
export function renderRegion(region: Region, tag: string): string {
  const label = `- ${describeRegion(region)}`;
  if (region.content === undefined) return label;
  const lines = region.content.replace(/\n$/, '').split('\n');
  const width = String(region.start + lines.length - 1).length;
  const numbered = lines.map((line, k) => `${String(region.start + k).padStart(width)}| ${line}`.trimEnd()).join('\n');
  const longest = Math.max(0, ...(region.content.match(/`+/g) ?? []).map((run) => run.length));
  const bar = '`'.repeat(Math.max(3, longest + 1));
  return `${label}${PACK_SEPARATOR}${bar}${tag}\n${numbered}\n${bar}`;
}

/** A packed file as the pack shows it: heading, then each region. */
export function renderPackedFile(file: FileResult): string {
  const tag = fenceTagOf(file.path);
  return [renderFileHeading(file), ...file.regions.map((region) => renderRegion(region, tag))].join(PACK_SEPARATOR);
}
