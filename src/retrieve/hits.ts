/**
 * The evidence lines of the candidates: a scan of those files alone says which terms each
 * matched line holds, the most telling lines are chosen on that, and only those lines are read.
 */
import { realpath } from 'node:fs/promises';
import pLimit from 'p-limit';
import { GENERATED_HEADER_BYTES, isGeneratedText } from '../core/generated.js';
import { readInsideRoot, type ReadOutcome } from '../core/read-inside.js';
import type { Candidate, Hit } from '../core/types.js';
import { createLineMatcher, MAX_HIT_TEXT, selectHits } from './collect.js';
import type { LineIndex } from './line-index.js';
import type { MatchLog } from './match-log.js';
import type { FragmentTerms } from './scan-reader.js';
import { replayLines, scanTerms, type ScanRun, type ScanTerms } from './scan.js';

const decoder = new TextDecoder('utf-8', { fatal: false });
const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Hits of one file from its per-line terms: the best lines (most distinct terms, then earliest)
 * in line order, with their text (invalid UTF-8 replaced, CR and trailing blanks dropped, cut
 * to `MAX_HIT_TEXT`). Read as every file is (`readInsideRoot`): a file that cannot be read any
 * more, or was swapped since the scan for a link out of the root, a FIFO or a file over
 * `maxFileSize` (a 1.9 GB one was read whole), gives no hits.
 */
export async function readHits(realRoot: string, path: string, lines: ReadonlyMap<number, string[]>, maxFileSize: number, terms?: ScanTerms, files?: FileReads): Promise<{ hits: Hit[]; generated: boolean }> {
  if (lines.size === 0) return { hits: [], generated: false };
  const read = await (files ? files.read(realRoot, path, maxFileSize) : readInsideRoot(realRoot, path, maxFileSize));
  // vanished or unreadable since the scan: no evidence lines, the counts still stand
  if (!('bytes' in read)) return { hits: [], generated: false };
  const { bytes } = read;
  // read whole here anyway: its first lines say whether a tool wrote it
  const generated = isGeneratedText(decoder.decode(bytes.subarray(0, GENERATED_HEADER_BYTES)));
  if (terms && bytes.indexOf(NEWLINE) === -1 && bytes.indexOf(CR) !== -1) return { hits: crOnlyHits(decoder.decode(bytes), lines, terms), generated };
  const chosen = selectHits([...lines].map(([line, terms]) => ({ line, terms })));
  const hits: Hit[] = [];
  let line = 1;
  let start = 0;
  for (const { line: wanted, terms } of chosen) {
    while (line < wanted && start <= bytes.length) {
      const end = bytes.indexOf(NEWLINE, start);
      start = end === -1 ? bytes.length + 1 : end + 1;
      line++;
    }
    if (start > bytes.length) break;
    const end = bytes.indexOf(NEWLINE, start);
    const text = decoder.decode(bytes.subarray(start, end === -1 ? bytes.length : end)).replace(/\r$/, '');
    hits.push({ line: wanted, text: hitText(text), terms });
  }
  return { hits, generated };
}

/**
 * The hits of a file whose lines end in a lone CR (`normalizeNewlines`): rg, counting by `\n`,
 * put every match on line 1, so the terms it found there are looked for again line by line.
 */
function crOnlyHits(text: string, lines: ReadonlyMap<number, string[]>, terms: ScanTerms): Hit[] {
  const found = new Set([...lines.values()].flat());
  const match = createLineMatcher({ keywords: terms.keywords.filter((k) => found.has(k)), literals: terms.literals.filter((l) => found.has(l)), symbols: terms.symbols.filter((s) => found.has(s)) });
  const perLine = text.split('\r').flatMap((line, i) => {
    const on = match(line);
    return on ? [{ line: i + 1, text: line, terms: [...on.keywords.keys(), ...on.literals, ...on.symbols] }] : [];
  });
  return selectHits(perLine).map((hit) => ({ ...hit, text: hitText(hit.text) }));
}

/** Bytes of the files read for their evidence lines a run keeps at most. */
export const MAX_KEPT_READ_BYTES = 32 * 1024 * 1024;

/**
 * The candidates' files as read for their evidence lines, kept for the searcher's lifetime (one
 * run): each dispatch reads the lines of every candidate again, for that cycle's terms, and most
 * candidates are the last cycle's. Reading one safely costs seven system calls (`readInsideRoot`);
 * a cycle of 150 candidates spent more time on them than on its scan. Bounded: past
 * `maxBytes` a file is read each time it is wanted, as before.
 */
export class FileReads {
  private readonly reads = new Map<string, Promise<ReadOutcome>>();
  private kept = 0;

  constructor(private readonly maxBytes = MAX_KEPT_READ_BYTES) {}

  read(realRoot: string, path: string, maxFileSize: number): Promise<ReadOutcome> {
    const key = `${realRoot}\0${path}`;
    const known = this.reads.get(key);
    if (known) return known;
    const reading = readInsideRoot(realRoot, path, maxFileSize);
    this.reads.set(key, reading);
    void reading.then((read) => {
      const size = 'bytes' in read ? read.bytes.length : 0;
      if (this.kept + size > this.maxBytes) this.reads.delete(key);
      else this.kept += size;
    });
    return reading;
  }
}

/** A hit line as kept: trailing blanks dropped, cut to `MAX_HIT_TEXT`. */
function hitText(line: string): string {
  return line.trimEnd().slice(0, MAX_HIT_TEXT).trimEnd();
}

/** The matches a content scan of the whole scope kept (`ScanRun.matchLog`), and the terms it ran. */
export interface KeptScan {
  terms: ScanTerms;
  log: MatchLog<FragmentTerms>;
}

/**
 * The evidence lines of the candidates found by content: one scan over those files alone, for
 * the terms each was not scanned for in an earlier cycle, then their best lines read. The terms
 * a content scan of the whole scope ran this run (`kept`) need no second pass: rg already printed
 * those lines, and each such scan is replayed with its own terms, as a scan of those terms over
 * the candidates would have read them.
 */
export async function readEvidenceLines(candidates: Candidate[], terms: ScanTerms, run: Omit<ScanRun, 'terms' | 'paths'>, lines: LineIndex, kept: readonly KeptScan[] = [], files?: FileReads): Promise<void> {
  const byPath = new Map(candidates.filter((c) => c.sources.includes('content') || c.sources.includes('symbol')).map((c) => [c.path, c]));
  if (byPath.size === 0) return;
  for (const group of lines.missing([...byPath.keys()], terms)) {
    for (const scan of kept) if (sharesTerm(scan.terms, group.terms)) lines.record(group.paths, scan.terms, replayLines(scan.log, group.paths, scan.terms));
  }
  await Promise.all(
    lines.missing([...byPath.keys()], terms).map(async (group) => {
      const found = new Map<string, Map<number, string[]>>();
      await scanTerms({ ...run, paths: group.paths, terms: group.terms, lines: true }, (path, tally) => {
        if (tally.lines) found.set(path, tally.lines);
      });
      lines.record(group.paths, group.terms, found);
    }),
  );
  // a few files at a time: each is read whole, and a candidate can be a megabyte
  const limit = pLimit(8);
  const realRoot = await realpath(run.root).catch(() => run.root);
  await Promise.all(
    [...byPath].map(([path, candidate]) =>
      limit(async () => {
        const onLines = lines.linesOf(path, terms);
        if (onLines.size === 0) return;
        const read = await readHits(realRoot, path, onLines, run.maxFileSize, terms, files);
        candidate.hits = read.hits;
        if (read.generated) candidate.generated = true;
      }),
    ),
  );
}

function sharesTerm(a: ScanTerms, b: ScanTerms): boolean {
  return a.keywords.some((k) => b.keywords.includes(k)) || a.literals.some((l) => b.literals.includes(l)) || a.symbols.some((s) => b.symbols.includes(s));
}
