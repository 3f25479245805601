import type { FileFacts, Region, SymbolDef } from '../core/types.js';

export interface RegionOptions {
  /**
   * Lines shown either side of evidence that is not inside a short definition.
   * @default 6
   */
  context?: number;
  /**
   * A definition longer than this is shown as its first line and a window around the evidence.
   * @default 50
   */
  maxRegionLines?: number;
}

/** Lines shown of a file with no evidence (its imports and header). */
const HEADER_LINES = 30;
/** Past this many separate regions the evidence is too scattered to show: an outline instead. */
const MAX_SCATTERED_REGIONS = 6;
/** Definitions an outline names at most. */
const MAX_OUTLINE = 30;

/**
 * The regions of a file worth reading, sorted and disjoint: per evidence line the innermost
 * definition around it (a method, not its class), or a window when that definition is long or
 * there is none; evidence in a container between its members (a class field) gives the
 * container's first line and a window, not every member. Adjacent regions merged. No evidence:
 * the header. Scattered evidence: an outline of the top-level definitions' first lines (values
 * left out when there are other definitions).
 */
export function regionsFor(facts: FileFacts, evidence: readonly number[], options: RegionOptions = {}): Region[] {
  const context = options.context ?? 6;
  const maxRegionLines = options.maxRegionLines ?? 50;
  const lines = facts.lines;
  if (lines <= 0) return [];
  const points = [...new Set(evidence.filter((n) => Number.isInteger(n) && n >= 1 && n <= lines))].sort((a, b) => a - b);
  if (points.length === 0) return [{ start: 1, end: Math.min(lines, HEADER_LINES) }];
  const around = points.map((line) => regionAround(facts.defs, line, lines, context, maxRegionLines));
  // Spread is judged on the evidence's own regions (touching ones count once), before the
  // first lines added for context and the one-line gaps closed for display.
  const places = mergeRegions(around.map((a) => a.region), 0);
  if (places.length <= MAX_SCATTERED_REGIONS) return mergeRegions(around.flatMap((a) => (a.header ? [a.header, a.region] : [a.region])));
  const outline = outlineOf(facts.defs, lines, points);
  return outline.length > 0 ? outline : places.slice(0, MAX_SCATTERED_REGIONS);
}

/** The region shown for one evidence line, and the first line of a long definition it is a window of. */
interface Around {
  region: Region;
  header?: Region;
}

function regionAround(defs: readonly SymbolDef[], line: number, lines: number, context: number, maxRegionLines: number): Around {
  const def = innermostAt(defs, line);
  const size = def ? def.end - def.start + 1 : 0;
  const isContainer = def !== undefined && size > 2 * context + 1 && defs.some((d) => d !== def && d.start >= def.start && d.end <= def.end);
  if (def && !isContainer && size <= maxRegionLines) return { region: { start: def.start, end: Math.min(def.end, lines), symbol: def.name } };
  const low = def ? Math.max(1, def.start) : 1;
  const high = def ? Math.min(lines, def.end) : lines;
  const window: Region = { start: Math.max(low, line - context), end: Math.min(high, line + context) };
  if (!def) return { region: window };
  window.symbol = def.name;
  // The first line says what the window is inside of.
  return window.start > def.start ? { region: window, header: { start: def.start, end: def.start, symbol: def.name } } : { region: window };
}

/** The smallest definition containing the line (ties: the later start, i.e. the nested one). */
export function innermostAt(defs: readonly SymbolDef[], line: number): SymbolDef | undefined {
  let best: SymbolDef | undefined;
  for (const def of defs) {
    if (def.start > line || def.end < line) continue;
    if (!best || def.end - def.start < best.end - best.start || (def.end - def.start === best.end - best.start && def.start > best.start)) best = def;
  }
  return best;
}

/**
 * Overlapping or adjacent regions become one, and so do regions at most `gap` lines apart (by
 * default one: the line costs what the `…` marking the gap would); symbols are joined in order,
 * without repeats.
 */
export function mergeRegions(regions: readonly Region[], gap = 1): Region[] {
  const sorted = [...regions].sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Region[] = [];
  for (const region of sorted) {
    const last = out[out.length - 1];
    if (last && region.start <= last.end + 1 + gap) {
      last.end = Math.max(last.end, region.end);
      if (region.symbol && !last.symbol?.split(', ').includes(region.symbol)) last.symbol = last.symbol ? `${last.symbol}, ${region.symbol}` : region.symbol;
    } else out.push({ ...region });
  }
  return out;
}

const VALUE_KINDS: ReadonlySet<SymbolDef['kind']> = new Set(['variable', 'constant']);

/**
 * First line of each definition not inside another one (Go and Rust methods included); values
 * only when nothing else is defined. A long outline keeps the `MAX_OUTLINE` definitions nearest
 * the evidence (those holding it first): a map of the file where the task touches it.
 */
function outlineOf(defs: readonly SymbolDef[], lines: number, evidence: readonly number[]): Region[] {
  const named = defs.filter((d) => !VALUE_KINDS.has(d.kind));
  const sorted = [...(named.length > 0 ? named : defs)].sort((a, b) => a.start - b.start || b.end - a.end);
  const top: SymbolDef[] = [];
  let coveredTo = 0;
  for (const def of sorted) {
    if (def.start <= coveredTo || def.start > lines) continue;
    top.push(def);
    coveredTo = def.end;
  }
  const distance = (def: SymbolDef): number => Math.min(...evidence.map((n) => (n < def.start ? def.start - n : n > def.end ? n - def.end : 0)));
  const kept = top.length <= MAX_OUTLINE ? top : top.map((def) => ({ def, d: distance(def) })).sort((a, b) => a.d - b.d || a.def.start - b.def.start).slice(0, MAX_OUTLINE).map((x) => x.def);
  return mergeRegions(kept.map((def) => ({ start: def.start, end: def.start, symbol: def.name })));
}
