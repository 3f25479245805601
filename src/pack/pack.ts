import type { Tokenizer } from '../core/deps.js';
import { redactSecrets } from '../core/redact.js';
import { fenceTagOf, GAP_LINE, PACK_SEPARATOR, renderFileHeading, renderNumberedLines, renderPackedFile } from '../core/pack-text.js';
import type { CutRegion, FileFacts, FileResult, Region, Score, SymbolDef } from '../core/types.js';
import { regionsFor } from './regions.js';
import { shownScore } from '../core/numbers.js';

export interface PackInput {
  scores: Score[];
  facts: Map<string, FileFacts>;
  /** File texts (CRLF normalized), keyed by path. A file without text cannot be packed. */
  texts: Map<string, string>;
  threshold: number;
  budget: number;
  tokenizer: Tokenizer;
  /**
   * Put each region's text in `content`, secret-looking values masked as in prompts. Counted
   * either way: the budget is for reading them.
   */
  withContent: boolean;
}

export interface PackResult {
  files: FileResult[];
  /**
   * Tokens of the pack as `--format md` shows its files (headings, reasons, numbered code in
   * fences), counted on the whole text. Never above the budget.
   */
  tokens: number;
  /** What did not fit, in the order it was left out (best files first). */
  cut: CutRegion[];
}

/** Radii tried, largest first, when a region is shrunk to a window around its evidence. */
const SHRINK_RADII = [12, 6, 3, 1, 0];

/** The text of a region: its lines joined by `\n`. */
export function regionText(lines: readonly string[], region: Region): string {
  return lines.slice(region.start - 1, region.end).join('\n');
}

/** The pack's text for these files, exactly as counted: files separated like blocks. */
export function renderPackText(files: readonly FileResult[]): string {
  return files.map(renderPackedFile).join(PACK_SEPARATOR);
}

/**
 * Packs the files scoring ≥ threshold, best first (ties by path), region by region while the
 * running count stays within the budget. A region that doesn't fit is shrunk to a window around
 * its evidence (the lines left out are listed as cut), else cut; a file none of whose regions
 * fit is cut whole. The finished text is counted once more as a whole, and regions are dropped
 * from the end until it fits, so `tokens` is the count of the text itself. Pure: no I/O.
 */
export function packFiles(input: PackInput): PackResult {
  const { tokenizer, budget } = input;
  const sep = tokenizer.count(PACK_SEPARATOR);
  const ranked = input.scores
    .filter((s) => s.relevance >= input.threshold)
    .sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const packed: FileResult[] = [];
  const cut: CutRegion[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (const score of ranked) {
    if (seen.has(score.path)) continue;
    seen.add(score.path);
    const text = input.texts.get(score.path);
    if (text === undefined) {
      cut.push({ path: score.path, tokens: 0 });
      continue;
    }
    // Masked over the whole file (line count kept), so a region starting inside a key block is masked too.
    const lines = redactSecrets(text, { path: score.path }).split('\n');
    const lineCount = text.endsWith('\n') ? lines.length - 1 : lines.length;
    const facts = input.facts.get(score.path);
    const file: FileResult = { path: score.path, score: shownScore(score.relevance), reason: score.reason, regions: [] };
    // The heading with an empty fence, then per region its numbered lines (and a gap mark): the
    // running count is close; `settle` counts the finished text exactly.
    const heading = tokenizer.count(`${renderFileHeading(file)}${PACK_SEPARATOR}\`\`\`${fenceTagOf(file.path)}\n\`\`\``) + (packed.length > 0 ? sep : 0);
    const costOf = (region: Region): number => regionCost(tokenizer, withText(region, lines));
    const regions = regionsFor({ ...(facts ?? bareFacts(score.path)), lines: Math.min(facts?.lines ?? lineCount, lineCount) }, score.evidence);
    if (text === '') {
      // an empty file has no region to show, and may be the answer all the same (`fix src/empty.ts`)
      if (total + heading <= budget) {
        total += heading;
        packed.push(file);
      } else cut.push({ path: score.path, tokens: heading });
      continue;
    }
    const left: CutRegion[] = [];
    const defs = facts?.defs ?? [];
    for (const region of regions) {
      const headingCost = file.regions.length === 0 ? heading : 0;
      const whole = costOf(region);
      const fitted = fitRegion(region, whole, score.evidence, budget - total - headingCost, costOf, defs);
      if (!fitted) {
        left.push(cutOf(score.path, region, whole));
        continue;
      }
      total += headingCost + fitted.tokens;
      file.regions.push(withText(fitted.region, lines));
      for (const rest of outside(region, fitted.region, defs)) left.push(cutOf(score.path, rest, costOf(rest)));
    }
    if (file.regions.length > 0) {
      packed.push(file);
      cut.push(...left);
    } else {
      cut.push({ path: score.path, tokens: heading + left.reduce((sum, item) => sum + item.tokens, 0) });
    }
  }
  const tokens = settle(packed, budget, tokenizer, cut);
  const files = packed.map((file) => (input.withContent ? file : { ...file, regions: file.regions.map(({ content: _content, ...region }) => region) }));
  return { files, tokens, cut };
}

/**
 * The whole text counted at once (token merges across block boundaries can differ from the sum
 * of the parts); while it is over the budget, the last region packed is cut.
 */
function settle(packed: FileResult[], budget: number, tokenizer: Tokenizer, cut: CutRegion[]): number {
  for (;;) {
    const tokens = tokenizer.count(renderPackText(packed));
    const last = packed[packed.length - 1];
    if (tokens <= budget || !last) return tokens;
    const region = last.regions.pop();
    if (!region) {
      // an empty file, packed as its heading alone
      packed.pop();
      cut.push({ path: last.path, tokens: tokenizer.count(renderFileHeading(last)) });
      continue;
    }
    cut.push(cutOf(last.path, region, regionCost(tokenizer, region)));
    if (last.regions.length === 0) packed.pop();
  }
}

/** What a region (with its text) adds to the pack: its numbered lines and a gap mark. */
function regionCost(tokenizer: Tokenizer, region: Region): number {
  return tokenizer.count(`${renderNumberedLines(region)}\n${GAP_LINE}\n`);
}

/** The region (costing `tokens`) if it fits in `room`, else the widest window around its first evidence line that does. */
function fitRegion(region: Region, tokens: number, evidence: readonly number[], room: number, costOf: (region: Region) => number, defs: readonly SymbolDef[]): { region: Region; tokens: number } | undefined {
  if (room < 0) return undefined;
  if (tokens <= room) return { region, tokens };
  const anchor = evidence.filter((n) => n >= region.start && n <= region.end).sort((a, b) => a - b)[0] ?? region.start;
  for (const radius of SHRINK_RADII) {
    const window: Region = { start: Math.max(region.start, anchor - radius), end: Math.min(region.end, anchor + radius) };
    if (window.start === region.start && window.end === region.end) continue;
    const symbol = labelOf(window, region, defs);
    if (symbol) window.symbol = symbol;
    const cost = costOf(window);
    if (cost <= room) return { region: window, tokens: cost };
  }
  return undefined;
}

/** The parts of `region` that a shrunk `kept` window leaves out. */
function outside(region: Region, kept: Region, defs: readonly SymbolDef[]): Region[] {
  const parts: Region[] = [];
  if (kept.start > region.start) parts.push({ start: region.start, end: kept.start - 1 });
  if (kept.end < region.end) parts.push({ start: kept.end + 1, end: region.end });
  for (const part of parts) {
    const symbol = labelOf(part, region, defs);
    if (symbol) part.symbol = symbol;
  }
  return parts;
}

/**
 * The label of a part of `region` (a window it was shrunk to, or what that left out): the
 * symbols of its label (`a, b` when regions were merged) whose definitions reach into the part.
 * A name with no definition in the facts (nothing to check it by) stays.
 */
function labelOf(part: Region, region: Region, defs: readonly SymbolDef[]): string | undefined {
  if (!region.symbol) return undefined;
  const names = region.symbol.split(', ').filter((name) => {
    const named = defs.filter((def) => def.name === name);
    return named.length === 0 || named.some((def) => def.start <= part.end && def.end >= part.start);
  });
  return names.length > 0 ? names.join(', ') : undefined;
}

function withText(region: Region, lines: readonly string[]): Region {
  return { ...region, content: regionText(lines, region) };
}

function cutOf(path: string, region: Region, tokens: number): CutRegion {
  const item: CutRegion = { path, start: region.start, end: region.end, tokens };
  if (region.symbol) item.symbol = region.symbol;
  return item;
}

function bareFacts(path: string): FileFacts {
  return { path, hash: '', language: 'text', lines: 0, defs: [], imports: [], calls: [] };
}
