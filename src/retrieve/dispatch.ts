/**
 * The retrieval subagent. One dispatch: the listing (`rg --files`) and a scan counting the
 * query's new terms in every file (`rg --only-matching`) run in parallel; the files are ranked
 * on those counts; then the candidates kept are scanned again, alone, for the terms of each
 * line, and their best lines read (`hits.ts`), and their sizes taken. The listing and the term counts are kept for the
 * searcher's lifetime, keyed by everything that shapes them, so a later cycle scans only the
 * terms it adds.
 */
import { stat } from 'node:fs/promises';
import pLimit from 'p-limit';
import { join } from 'node:path';
import type { SearchRequest, SearchScope, Searcher } from '../core/deps.js';
import { isAbortError, throwIfAborted } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/log.js';
import type { Candidate, DispatchResult } from '../core/types.js';
import { ripgrepSkipGlobs } from './filters.js';
import { listSearchableFiles, type FileList } from './list.js';
import { normalizeGlob } from './match.js';
import { rankCandidates } from './rank.js';
import { resolveRgPath } from './rg-path.js';
import { readHits } from './hits.js';
import { scanTerms, type FileTally, type ScanRun, type ScanTerms } from './scan.js';
import { resolveScopeEntries } from './scope.js';
import { TermIndex } from './term-index.js';

export interface SearcherOptions {
  /** Receives which ripgrep is used and partial-failure warnings. */
  logger?: Logger;
  /** Read for `CTXLOOP_RG` and `PATH`. @default process.env */
  env?: Record<string, string | undefined>;
}

export function createSearcher(options: SearcherOptions = {}): Searcher {
  const logger = options.logger ?? silentLogger;
  const env = options.env ?? process.env;
  let rgPath: Promise<string> | undefined;
  const lists = new Map<string, Promise<FileList>>();
  const indexes = new Map<string, TermIndex>();
  const keyOf = (scope: SearchScope): string => JSON.stringify([scope.root, scope.scope, scope.include, scope.exclude, scope.maxFileSize]);

  const rg = (): Promise<string> => (rgPath ??= resolveRgPath(env, logger));
  /** The listing is shared by the calls of a run; the call that starts it lends it its signal, so no rg outlives an aborted run. */
  const listOf = (scope: SearchScope, signal?: AbortSignal): Promise<FileList> => {
    const key = keyOf(scope);
    let list = lists.get(key);
    if (!list) {
      list = rg().then((path) => listSearchableFiles(scope, { rgPath: path, logger, signal }));
      lists.set(key, list);
      // a failed listing is not remembered: the next call tries again
      list.catch(() => lists.delete(key));
    }
    return list;
  };
  const indexOf = (scope: SearchScope): TermIndex => {
    const key = keyOf(scope);
    let index = indexes.get(key);
    if (!index) indexes.set(key, (index = new TermIndex()));
    return index;
  };

  return {
    async listFiles(scope, signal) {
      const list = await listOf(scope, signal);
      throwIfAborted(signal);
      return list.files;
    },

    async search(request, signal) {
      throwIfAborted(signal);
      return dispatch(request, { rgPath: await rg(), listOf, index: indexOf(request), logger, signal });
    },
  };
}

interface DispatchContext {
  rgPath: string;
  listOf: (scope: SearchScope, signal?: AbortSignal) => Promise<FileList>;
  index: TermIndex;
  logger: Logger;
  signal: AbortSignal | undefined;
}

async function dispatch(request: SearchRequest, context: DispatchContext): Promise<DispatchResult> {
  const { query } = request;
  const entries = await resolveScopeEntries(request.root, request.scope);
  throwIfAborted(context.signal);
  // a literal spanning lines, or holding a NUL, can match no line: nothing to count
  const terms = { keywords: query.keywords, literals: query.literals.filter((l) => l.trim() !== '' && !/[\r\n\0]/.test(l)), symbols: query.symbols };
  // one failed run stops its siblings instead of letting them finish for nothing
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  context.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const run = {
      rgPath: context.rgPath,
      root: request.root,
      paths: [...entries.dirs, ...entries.files.map((f) => f.path)],
      iglobs: ripgrepSkipGlobs(),
      globs: userGlobs(request.include, request.exclude),
      maxFileSize: request.maxFileSize,
      logger: context.logger,
      signal: stop.signal,
    };
    // not raced against the signal: a listing this call started is killed by it, and waited for
    const listing = context.listOf(request, stop.signal);
    const t0 = performance.now(); const scanning = context.index.ensure(terms, (fresh, record) => scanTerms({ ...run, terms: fresh }, record).then(() => void process.stderr.write(`passA ${fresh.keywords.length} ${Math.round(performance.now() - t0)}ms\n`))); void listing.then(() => process.stderr.write(`list ${Math.round(performance.now() - t0)}ms\n`));
    const stopOnFailure = <T>(p: Promise<T>): Promise<T> => p.catch((error: unknown) => failFast(stop, error));
    // Wait for every run to end (a killed rg included) before reporting, so no process outlives the call.
    const settled = await Promise.allSettled([stopOnFailure(listing), stopOnFailure(scanning)]);
    throwIfAborted(context.signal);
    const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (failures.length > 0) throw failures.find((e) => !isAbortError(e)) ?? failures[0];
    const list = (settled[0] as PromiseFulfilledResult<FileList>).value;
    const ranked = rankCandidates({ query, list, evidence: context.index.evidenceFor(terms), maxCandidates: request.maxCandidates });
    await Promise.all([readEvidenceLines(ranked.candidates, terms, run), readSizes(ranked.candidates, request.root)]);
    throwIfAborted(context.signal);
    return ranked;
  } finally {
    context.signal?.removeEventListener('abort', onAbort);
  }
}

/** The evidence lines of the candidates found by content: one scan over those files alone. */
async function readEvidenceLines(candidates: Candidate[], terms: ScanTerms, run: Omit<ScanRun, 'terms' | 'paths'>): Promise<void> {
  const byPath = new Map(candidates.filter((c) => c.sources.includes('content') || c.sources.includes('symbol')).map((c) => [c.path, c]));
  if (byPath.size === 0) return;
  const found: Array<[string, FileTally]> = [];
  const t0 = performance.now(); await scanTerms({ ...run, paths: [...byPath.keys()], terms, lines: true }, (path, tally) => found.push([path, tally])); process.stderr.write(`passB ${byPath.size} ${Math.round(performance.now() - t0)}ms ${[...found].reduce((n, [, t]) => n + (t.lines?.size ?? 0), 0)} lines\n`);
  // a few files at a time: each is read whole, and a candidate can be a megabyte
  const limit = pLimit(8);
  await Promise.all(
    found.map(([path, tally]) =>
      limit(async () => {
        const candidate = byPath.get(path);
        if (candidate && tally.lines) candidate.hits = await readHits(run.root, path, tally.lines);
      }),
    ),
  );
}

async function readSizes(candidates: Candidate[], root: string): Promise<void> {
  await Promise.all(
    candidates.map(async (c) => {
      try {
        c.size = (await stat(join(root, c.path))).size;
      } catch {
        // vanished since it was listed: a size of 0, and the facts reader will skip it
      }
    }),
  );
}

/**
 * The user's include and exclude globs for rg, excludes last so they win. rg reads them as
 * `createPathMatcher` does (a name without a slash matches at any depth); its results are
 * still filtered through the listing, so no file the listing left out can get through.
 */
function userGlobs(include: readonly string[], exclude: readonly string[]): string[] {
  const included = include.map(normalizeGlob).filter((g) => g !== '');
  const excluded = exclude.map(normalizeGlob).filter((g) => g !== '').map((g) => `!${g}`);
  return [...included, ...excluded];
}

/** Stops the other runs, then rethrows: the first failure is the one reported. */
function failFast(stop: AbortController, error: unknown): never {
  stop.abort();
  throw error;
}
