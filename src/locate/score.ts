/**
 * Suspects for a bug from its error text: the files its frames name (nearest the error first),
 * the files defining the functions its frames name, the files holding its message, with recent
 * and frequent change as a tie-breaker. Each piece of evidence is a chance the bug is there;
 * a file's confidence combines its pieces (1 − Π(1 − p)), so more independent evidence is surer.
 */
import type { FileHistory } from '../core/deps.js';
import type { FrameMatch } from '../core/frame-paths.js';
import { fileKindOf, type FileKind } from '../core/files.js';
import { roundTo } from '../core/numbers.js';
import type { LocateCandidate, ParsedTrace, StackFrame } from '../core/types.js';
import { describeSuspect, type Clue } from './reason.js';

/** Where a name or a message was found. */
export interface Place {
  path: string;
  line: number;
}

export interface LocateEvidence {
  parsed: ParsedTrace;
  /** The match of each frame of `parsed.frames` (same index), if its path names repository files. */
  matches: ReadonlyArray<FrameMatch | undefined>;
  /** Frame function → where it is defined. */
  definitions: ReadonlyMap<string, readonly Place[]>;
  /** Error message literal → where it is written. */
  messages: ReadonlyMap<string, readonly Place[]>;
  history: FileHistory | undefined;
}

/** Chance that one piece of evidence points at the bug, at its strongest. */
const P = {
  frame: 0.9,
  definition: 0.55,
  message: 0.7,
  recency: 0.15,
  churn: 0.1,
} as const;
/** How fast a frame's weight falls with each frame between it and the error. */
const PER_HOP = 0.35;
/** Frames of a secondary trace (where memory was freed, a handled exception) count for less. */
const OTHER_TRACE = 0.75;
/** Further frames in a file already named by a nearer one add a little: they say "here" again, not something new. */
const REPEAT = 0.2;
/** Files that are not code are seldom where a fix goes. */
const KIND: Partial<Record<FileKind, number>> = { code: 1, test: 0.6 };
const OTHER_KIND = 0.5;

interface Suspect {
  path: string;
  pieces: number[];
  framePieces: number[];
  clues: Clue[];
  line?: number;
  symbol?: string;
  /** Strength of the evidence that set `line`. */
  lineFrom: number;
}

/** Times one frame (same files, line and function) counts at most. */
const MAX_REPEATS = 3;

/** The `limit` strongest suspects, best first; history alone names suspects only when nothing else points anywhere. */
export function scoreSuspects(evidence: LocateEvidence, limit: number): LocateCandidate[] {
  const { parsed, matches } = evidence;
  const suspects = new Map<string, Suspect>();
  const suspect = (path: string): Suspect => {
    let s = suspects.get(path);
    if (!s) suspects.set(path, (s = { path, pieces: [], framePieces: [], clues: [], lineFrom: 0 }));
    return s;
  };
  const place = (s: Suspect, p: number, line: number | undefined, symbol: string | undefined): void => {
    if (line === undefined || p <= s.lineFrom) return;
    s.lineFrom = p;
    s.line = line;
    if (symbol) s.symbol = symbol;
    else delete s.symbol;
  };

  const hops = repositoryHops(parsed.frames, matches);
  // The same frame again and again (deep recursion, a log of one error a line) adds little past
  // its first few: counted at most `MAX_REPEATS` times, so 20,000 of them make no 20,000 clues.
  const repeats = new Map<string, number>();
  parsed.frames.forEach((frame, i) => {
    const match = matches[i];
    if (!match) return;
    const key = `${match.paths.join('\0')}\0${frame.line ?? ''}\0${frame.symbol ?? ''}`;
    const count = (repeats.get(key) ?? 0) + 1;
    repeats.set(key, count);
    if (count > MAX_REPEATS) return;
    const nearness = traceFactor(frame, parsed.primary) / (1 + PER_HOP * hops[i]!);
    const quality = matchQuality(match) / match.paths.length;
    for (const path of match.paths) {
      const s = suspect(path);
      const p = P.frame * nearness * quality * kindFactor(path);
      s.framePieces.push(p);
      s.clues.push({ kind: 'frame', hop: hops[i]!, frame, weight: p });
      place(s, p, frame.line, frame.symbol);
    }
  });

  const seenSymbols = new Set<string>();
  for (const frame of parsed.frames) {
    if (frame.runtime || !frame.symbol || seenSymbols.has(frame.symbol)) continue;
    seenSymbols.add(frame.symbol);
    const places = evidence.definitions.get(frame.symbol) ?? [];
    const files = new Set(places.map((p) => p.path));
    for (const at of places) {
      const s = suspect(at.path);
      const p = (P.definition * traceFactor(frame, parsed.primary)) / (1 + PER_HOP * frame.depth) / Math.sqrt(files.size) * kindFactor(at.path);
      s.pieces.push(p);
      s.clues.push({ kind: 'definition', symbol: frame.symbol, weight: p });
      place(s, p * 0.9, at.line, frame.symbol);
    }
  }

  for (const [message, places] of evidence.messages) {
    const files = new Set(places.map((p) => p.path));
    for (const path of files) {
      const s = suspect(path);
      const p = (P.message / Math.sqrt(files.size)) * kindFactor(path);
      s.pieces.push(p);
      s.clues.push({ kind: 'message', message, weight: p });
      place(s, p * 0.8, places.find((x) => x.path === path)!.line, undefined);
    }
  }

  const evidenced = suspects.size > 0;
  const history = evidence.history;
  if (history && history.commits > 0) {
    const maxChanges = Math.max(1, ...[...history.files.values()].map((f) => f.changes));
    // Without any other evidence, the hotspots among the code files are all there is to go on.
    const pool = evidenced ? [...suspects.keys()] : [...history.files.keys()].filter((p) => fileKindOf(p) === 'code');
    for (const path of pool) {
      const changed = history.files.get(path);
      if (!changed) continue;
      const s = suspect(path);
      const recency = P.recency / (1 + changed.latest / 10);
      const churn = (P.churn * changed.changes) / maxChanges;
      s.pieces.push(recency, churn);
      s.clues.push({ kind: 'history', latest: changed.latest, changes: changed.changes, commits: history.commits, weight: recency + churn });
    }
  }

  return [...suspects.values()]
    .map((s) => ({ s, confidence: combine(s) }))
    .sort((a, b) => b.confidence - a.confidence || (a.s.path < b.s.path ? -1 : 1))
    .slice(0, limit)
    .map(({ s, confidence }) => ({
      path: s.path,
      confidence: roundTo(confidence, 2),
      reason: describeSuspect(s.clues, evidenced),
      ...(s.line === undefined ? {} : { line: s.line }),
      ...(s.symbol === undefined ? {} : { symbol: s.symbol }),
    }));
}

/** Frames in one file: the nearest counts fully, the others a little. Then every piece, as independent chances. */
function combine(s: Suspect): number {
  const frames = [...s.framePieces].sort((a, b) => b - a);
  const pieces = [...(frames.length > 0 ? [frames[0]!] : []), ...frames.slice(1).map((p) => p * REPEAT), ...s.pieces];
  return Math.min(0.99, 1 - pieces.reduce((miss, p) => miss * (1 - Math.min(p, 0.99)), 1));
}

/**
 * For each frame, how many frames of its trace that map into the repository lie between it and
 * the error. Frames outside the repository (the reporter's script, libraries) do not count: the
 * repository frame nearest the error is where its code was last in control.
 */
function repositoryHops(frames: readonly StackFrame[], matches: ReadonlyArray<FrameMatch | undefined>): number[] {
  const hops = new Array<number>(frames.length).fill(0);
  const byTrace = new Map<number, number[]>();
  frames.forEach((f, i) => {
    if (!matches[i]) return;
    const list = byTrace.get(f.trace) ?? [];
    list.push(i);
    byTrace.set(f.trace, list);
  });
  for (const list of byTrace.values()) {
    list.sort((a, b) => frames[a]!.depth - frames[b]!.depth);
    let hop = -1;
    let lastDepth = -1;
    for (const i of list) {
      // Frames at the same depth (a runtime frame beside its caller) share a hop.
      if (frames[i]!.depth !== lastDepth) hop++;
      lastDepth = frames[i]!.depth;
      hops[i] = hop;
    }
  }
  return hops;
}

function traceFactor(frame: StackFrame, primary: number): number {
  return frame.trace === primary ? 1 : OTHER_TRACE;
}

/** A path matched whole (or by several segments) names its file more surely than one matched by its name alone. */
function matchQuality(match: FrameMatch): number {
  if (match.whole) return match.segments >= 2 ? 1 : 0.85;
  return match.segments >= 3 ? 0.95 : 0.85;
}

function kindFactor(path: string): number {
  return KIND[fileKindOf(path)] ?? OTHER_KIND;
}
