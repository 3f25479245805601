import type { Logger } from '../core/log.js';
import type { ProgressEvent, Query, RetrieveResult } from '../core/types.js';
import { shownPath, shownText, UNREAD_REASON } from '../core/pack-text.js';
import { createPaint } from './io.js';
import type { OutputStream } from './write.js';

export interface ReporterOptions {
  stderr: OutputStream;
  /** Errors only. */
  quiet: boolean;
  /** Per-stage detail and debug logs. */
  verbose: boolean;
  color: boolean;
}

/** What the CLI hands the library (`logger`, `onProgress`) plus the closing summary. */
export interface Reporter {
  logger: Logger;
  onProgress(event: ProgressEvent): void;
  /** The last stderr lines of a finished run: provider, counts, and whether anything made the threshold. */
  finish(result: RetrieveResult): void;
}

/**
 * stderr, by level: errors always; provider, fallbacks and warnings unless `--quiet`; a line per
 * cycle on a terminal or with `--verbose`; per-stage detail and debug logs with `--verbose`.
 * stdout is never touched here.
 */
export function createReporter({ stderr, quiet, verbose, color }: ReporterOptions): Reporter {
  const paint = createPaint(color);
  const say = (line: string): void => void stderr.write(`${line}\n`);
  const cycleLines = !quiet && (verbose || stderr.isTTY === true);
  const dispatched = new Map<number, { candidates: number; ms: number }>();
  const reported = new Set<number>();

  const cycleLine = (cycle: number, kept: number, evaluateMs: number): void => {
    if (!cycleLines || reported.has(cycle)) return;
    reported.add(cycle);
    const found = dispatched.get(cycle) ?? { candidates: 0, ms: 0 };
    say(`cycle ${cycle}: ${found.candidates} candidates, ${kept} kept ${paint.dim(`(${Math.round(found.ms + evaluateMs)} ms)`)}`);
  };
  const detail = (line: string): void => {
    // what is said may quote file names and task text: their control characters are not run by the terminal
    if (verbose) say(paint.dim(shownText(line)));
  };

  const logger: Logger = {
    debug: (message) => detail(`debug: ${message}`),
    info: (message) => {
      if (!quiet) say(shownText(message));
    },
    warn: (message) => {
      if (!quiet) say(`${paint.yellow('warning:')} ${shownText(message)}`);
    },
    error: (message) => say(`${paint.red('error:')} ${shownText(message)}`),
  };

  const onProgress = (event: ProgressEvent): void => {
    switch (event.type) {
      case 'plan':
        detail(`plan: ${describeQuery(event.query)}`);
        break;
      case 'dispatch':
        dispatched.set(event.cycle, { candidates: event.candidates, ms: event.ms });
        detail(`cycle ${event.cycle} dispatch: ${event.candidates} candidates (${Math.round(event.ms)} ms)`);
        break;
      case 'evaluate':
        detail(`cycle ${event.cycle} evaluate: ${event.scored} scored, ${event.kept} kept (${Math.round(event.ms)} ms)`);
        cycleLine(event.cycle, event.kept, event.ms);
        break;
      case 'refine':
        cycleLine(event.cycle, 0, 0);
        detail(`cycle ${event.cycle} refine: ${event.stop ? 'stop' : 'go on'} (${event.why})${event.gaps.length ? `; gaps: ${event.gaps.join('; ')}` : ''}`);
        break;
      case 'pack':
        detail(`pack: ${event.files} files, ${event.tokens} tokens`);
        break;
    }
  };

  const finish = (result: RetrieveResult): void => {
    if (quiet) return;
    const fallback = result.fallback ? ` (fell back: ${result.fallback.reason})` : '';
    say(`${paint.bold(`${result.files.length} ${result.files.length === 1 ? 'file' : 'files'}`)}, ${result.tokens} tokens, provider ${result.provider}${fallback}, ${result.cycles.length} ${result.cycles.length === 1 ? 'cycle' : 'cycles'}`);
    const unread = result.candidates.filter((c) => c.reason.startsWith(UNREAD_REASON));
    for (const c of unread.slice(0, 3)) say(`${paint.yellow('warning:')} ${shownPath(c.path)} scored ${c.score.toFixed(2)} but could not be read to be packed (deleted, unreadable or replaced since the search)`);
    if (unread.length > 3) say(`${paint.yellow('warning:')} ${unread.length - 3} more files scored at or above the threshold but could not be read`);
    if (result.files.length === 0) {
      const cut = result.cut?.[0];
      const best = result.candidates[0];
      if (cut) say(`${paint.yellow('warning:')} no file fit the token budget (the first cut: ${shownPath(cut.path)}, ${cut.tokens} tokens); raise --budget to have it`);
      else if (unread.length > 0) say(`${paint.yellow('warning:')} no file was packed: those that reached the threshold could not be read`);
      else say(`${paint.yellow('warning:')} no file reached the threshold${best ? ` (best candidate: ${shownPath(best.path)}, ${best.score.toFixed(2)})` : ''}`);
    }
  };

  return { logger, onProgress, finish };
}

const LISTED = 8;

function describeQuery(query: Query): string {
  const parts: string[] = [];
  const list = (label: string, items: string[]): void => {
    if (items.length === 0) return;
    const more = items.length > LISTED ? ` (+${items.length - LISTED})` : '';
    parts.push(`${label} ${items.slice(0, LISTED).join(', ')}${more}`);
  };
  list('keywords', query.keywords);
  list('symbols', query.symbols);
  list('paths', query.paths);
  list('literals', query.literals.map((l) => JSON.stringify(l)));
  list('patterns', query.patterns);
  return parts.join('; ') || '(empty query)';
}
