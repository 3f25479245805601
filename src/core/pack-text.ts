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

/** What `shownPath` replaces: C0 and C1 controls, bidirectional overrides and isolates. */
const UNSHOWABLE = /[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A path as Markdown shows it: a control character in a file name (an escape sequence a terminal
 * would run, C0 or C1) or a bidirectional override (U+202E turns `exe.txt` into `txt.exe`) shown
 * as U+FFFD. JSON and `--format paths` into a pipe keep the path as it is.
 */
export function shownPath(path: string): string {
  return path.replace(UNSHOWABLE, '\uFFFD');
}

/** Whether a name holds a character `shownPath` would have to replace. */
export function hasUnshowable(text: string): boolean {
  UNSHOWABLE.lastIndex = 0;
  return UNSHOWABLE.test(text);
}

/** Text for a terminal that may quote file names (gaps, warnings, locate and trace lines): as `shownPath`, tabs and line breaks kept. */
export function shownText(text: string): string {
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, '\uFFFD');
}

/**
 * `## path (score 0.93)` and the reason: what precedes a file's regions. The reason is one
 * paragraph whatever it says: a model's reason reading `## .env (score 1.00)` made a heading of
 * its own, a file the pack never held; a leading Markdown block marker is escaped.
 */
export function renderFileHeading(file: Pick<FileResult, 'path' | 'score' | 'reason'>): string {
  const title = `## ${shownPath(file.path)} (score ${file.score.toFixed(2)})`;
  if (!file.reason) return title;
  const reason = shownText(file.reason.replace(/\s*\n\s*/g, ' ')).replace(/^(\s*)(#|>|`{3}|~{3}|[=-]+\s*$|\|)/, '$1\\$2');
  return `${title}${PACK_SEPARATOR}${reason}`;
}

/** `lines 40–88 (verifyEmail)`, `line 7`. */
export function describeRegion(region: Pick<Region, 'start' | 'end' | 'symbol'>): string {
  const lines = region.start === region.end ? `line ${region.start}` : `lines ${region.start}–${region.end}`;
  // a name the pattern extractor read from a file the grammar could not (`def \x1b[2J(x)`) is the repository's text
  return region.symbol ? `${lines} (${shownText(region.symbol)})` : lines;
}

/**
 * A region's lines, each prefixed with its number and a tab, as `cat -n` writes them (unpadded):
 * `40\tconst x = 1;`. The tab merges with the line's indentation into one token, so numbering
 * costs about a token a line (`40| ` costs two). Blank lines stay blank: the next number says
 * where they were. Control characters in the code (an escape sequence a terminal would run, a
 * lone carriage return that would overwrite the line) show as U+FFFD, as in names; JSON's
 * `content` keeps the text as it is.
 */
export function renderNumberedLines(region: Pick<Region, 'start' | 'content'>): string {
  const lines = (region.content ?? '').replace(/\n$/, '').split('\n');
  return lines.map((line, k) => (line.trim() === '' ? '' : shownText(`${region.start + k}\t${line}`.trimEnd()))).join('\n');
}

/** Marks lines left out between two regions of one fence. */
export const GAP_LINE = '…';

/** A fence longer than any backtick run inside, so code holding ``` cannot close it early. */
export function fenceFor(contents: readonly string[]): string {
  // a loop, not Math.max(...runs): a line of 130,000 backtick runs overflowed the stack as arguments
  let longest = 0;
  for (const content of contents) for (const run of content.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * A packed file as the pack shows it: heading, then its regions' lines, numbered, in one fence
 * tagged with the language, `…` where lines are skipped between regions. Regions without
 * content (a result asked for without it) are listed by their lines instead.
 */
export function renderPackedFile(file: FileResult): string {
  const heading = renderFileHeading(file);
  if (file.regions.length === 0) return heading;
  if (file.regions.some((r) => r.content === undefined)) return [heading, ...file.regions.map((r) => `- ${describeRegion(r)}`)].join(PACK_SEPARATOR);
  const body: string[] = [];
  let last = 0;
  for (const region of file.regions) {
    if (last > 0 && region.start > last + 1) body.push(GAP_LINE);
    body.push(renderNumberedLines(region));
    last = region.end;
  }
  const bar = fenceFor(file.regions.map((r) => r.content!));
  return `${heading}${PACK_SEPARATOR}${bar}${fenceTagOf(file.path)}\n${body.join('\n')}\n${bar}`;
}

/** How a candidate's reason opens when it scored at or above the threshold and could not be read to be packed. */
export const UNREAD_REASON = 'not packed: the file could not be read (deleted, unreadable or replaced since the search)';

const C_ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\x07': '\\a', '"': '\\"', '\\': '\\\\' };

/**
 * `src/line\nbreak.ts` → `"src/line\\nbreak.ts"` (git's `core.quotePath` form); a name without a
 * line break as it is. Names are shown so wherever a line break would end them: a pipe's lines, a
 * trace, and a model's prompt (where a name could otherwise forge the header of another file).
 */
export function quotedPath(path: string): string {
  if (!LINE_BREAKING.test(path) && !path.startsWith('"')) return path;
  return `"${path.replace(/[\x00-\x1f\x7f"\\\x85\u2028\u2029]/g, (c) => C_ESCAPES[c] ?? (c.charCodeAt(0) > 0xff ? `\\u${c.charCodeAt(0).toString(16)}` : `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`))}"`;
}

/** What a line reader may take for the end of a line: LF, CR, VT, FF, the file/group/record separators, NEL, U+2028, U+2029. */
const LINE_BREAKING = /[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
