import type { Tokenizer } from '../core/deps.js';
import { redactSecrets } from '../core/redact.js';
import type { FileFacts, FileResult, Region, Score } from '../core/types.js';
import { regionsFor } from './regions.js';
import { roundTo } from '../core/numbers.js';

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

export interface CutItem {
  path: string;
  /** The region left out; absent when the whole file was. */
  region?: Region;
  tokens: number;
}

export interface PackResult {
  files: FileResult[];
  /** Tokens counted: every packed file's header and region texts. Never above the budget. */
  tokens: number;
  cut: CutItem[];
}

/** Radii tried, largest first, when a region is shrunk to a window around its evidence. */
const SHRINK_RADII = [12, 6, 3, 1, 0];

/** The per-file line counted with the regions: path, score and reason. */
export function renderFileHeader(file: Pick<FileResult, 'path' | 'score' | 'reason'>): string {
  return `${file.path} (score ${file.score.toFixed(2)})\n${file.reason}\n`;
}

/** The text of a region: its lines joined by `\n`. */
export function regionText(lines: readonly string[], region: Region): string {
  return lines.slice(region.start - 1, region.end).join('\n');
}


/**
 * Packs the files scoring ≥ threshold, best first (ties by path), region by region while the
 * running count stays within the budget. A region that doesn't fit is shrunk to a window around
 * its evidence, else cut; a file none of whose regions fit is cut whole. Pure: no I/O.
 */
export function packFiles(input: PackInput): PackResult {
  const { tokenizer, budget, withContent } = input;
  const ranked = input.scores
    .filter((s) => s.relevance >= input.threshold)
    .sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const files: FileResult[] = [];
  const cut: CutItem[] = [];
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
    const file: FileResult = { path: score.path, score: roundTo(score.relevance, 2), reason: score.reason, regions: [] };
    const header = tokenizer.count(renderFileHeader(file));
    const regions = regionsFor({ ...(facts ?? bareFacts(score.path)), lines: Math.min(facts?.lines ?? lineCount, lineCount) }, score.evidence);
    const left: CutItem[] = [];
    for (const region of regions) {
      const headerCost = file.regions.length === 0 ? header : 0;
      const fitted = fitRegion(region, lines, score.evidence, budget - total - headerCost, tokenizer);
      if (!fitted) {
        left.push({ path: score.path, region, tokens: tokenizer.count(regionText(lines, region)) });
        continue;
      }
      total += headerCost + fitted.tokens;
      file.regions.push(withContent ? { ...fitted.region, content: regionText(lines, fitted.region) } : fitted.region);
    }
    if (file.regions.length > 0) {
      files.push(file);
      cut.push(...left);
    } else {
      cut.push({ path: score.path, tokens: header + left.reduce((sum, item) => sum + item.tokens, 0) });
    }
  }
  return { files, tokens: total, cut };
}

/** The region if it fits in `room`, else the widest window around its first evidence line that does. */
function fitRegion(region: Region, lines: readonly string[], evidence: readonly number[], room: number, tokenizer: Tokenizer): { region: Region; tokens: number } | undefined {
  if (room < 0) return undefined;
  const tokens = tokenizer.count(regionText(lines, region));
  if (tokens <= room) return { region, tokens };
  const anchor = evidence.filter((n) => n >= region.start && n <= region.end).sort((a, b) => a - b)[0] ?? region.start;
  for (const radius of SHRINK_RADII) {
    const window: Region = { start: Math.max(region.start, anchor - radius), end: Math.min(region.end, anchor + radius) };
    if (window.start === region.start && window.end === region.end) continue;
    if (region.symbol) window.symbol = region.symbol;
    const cost = tokenizer.count(regionText(lines, window));
    if (cost <= room) return { region: window, tokens: cost };
  }
  return undefined;
}

function bareFacts(path: string): FileFacts {
  return { path, hash: '', language: 'text', lines: 0, defs: [], imports: [], calls: [] };
}
