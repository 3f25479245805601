/**
 * The retrieval subagent: one dispatch runs the file listing and the content search in
 * parallel, then merges the evidence per file. The listing is cached for the searcher's
 * lifetime, keyed by everything that shapes it.
 */
import pLimit from 'p-limit';
import type { SearchRequest, SearchScope, Searcher } from '../core/deps.js';
import { abortError, isAbortError, isCtxloopError, throwIfAborted } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/log.js';
import { searchPrefix } from '../core/text.js';
import type { DispatchResult } from '../core/types.js';
import { EvidenceCollector } from './collect.js';
import { ripgrepSkipGlobs } from './filters.js';
import { listSearchableFiles, type FileList } from './glob.js';
import { normalizeGlob } from './match.js';
import { rankCandidates } from './rank.js';
import { resolveRgPath } from './rg-path.js';
import { chunkPatterns, preparePatterns, runRipgrep } from './ripgrep.js';
import { resolveScopeEntries } from './scope.js';

export interface SearcherOptions {
  /** Receives which ripgrep is used and partial-failure warnings. */
  logger?: Logger;
  /** Read for `CTXLOOP_RG` and `PATH`. @default process.env */
  env?: Record<string, string | undefined>;
  /** Milliseconds one rg process may run before it is killed. @default 60000 */
  timeout?: number;
}

export function createSearcher(options: SearcherOptions = {}): Searcher {
  const logger = options.logger ?? silentLogger;
  const env = options.env ?? process.env;
  let rgPath: Promise<string> | undefined;
  const lists = new Map<string, Promise<FileList>>();
  // One warning per distinct failure: a broken rg fails the same way every cycle.
  const warned = new Set<string>();
  const warnOnce = (message: string): void => {
    if (warned.has(message)) return;
    warned.add(message);
    logger.warn(message);
  };

  const listOf = (scope: SearchScope): Promise<FileList> => {
    const key = JSON.stringify([scope.root, scope.scope, scope.include, scope.exclude, scope.maxFileSize]);
    let list = lists.get(key);
    if (!list) {
      list = listSearchableFiles(scope);
      lists.set(key, list);
      // a failed listing is not remembered: the next call tries again
      list.catch(() => lists.delete(key));
    }
    return list;
  };

  return {
    async listFiles(scope, signal) {
      const list = await raceAbort(listOf(scope), signal);
      return list.files.map((f) => f.path);
    },

    async search(request, signal) {
      throwIfAborted(signal);
      rgPath ??= resolveRgPath(env, logger);
      return dispatch(request, { rgPath: await rgPath, listOf, logger, warnOnce, timeout: options.timeout ?? 60_000, signal });
    },
  };
}

interface DispatchContext {
  rgPath: string;
  listOf: (scope: SearchScope) => Promise<FileList>;
  logger: Logger;
  warnOnce: (message: string) => void;
  timeout: number;
  signal: AbortSignal | undefined;
}

async function dispatch(request: SearchRequest, context: DispatchContext): Promise<DispatchResult> {
  const { query } = request;
  const entries = await resolveScopeEntries(request.root, request.scope);
  throwIfAborted(context.signal);
  const collector = new EvidenceCollector(query);
  const patterns = preparePatterns([...query.keywords.map(searchPrefix), ...query.literals, ...query.symbols]);
  const limit = pLimit(request.concurrency);
  // one failed run stops its siblings instead of letting them finish for nothing
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  context.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const listing = limit(() => raceAbort(context.listOf(request), stop.signal));
    const run = {
      rgPath: context.rgPath,
      root: request.root,
      paths: [...entries.dirs, ...entries.files.map((f) => f.path)],
      iglobs: ripgrepSkipGlobs(),
      globs: userGlobs(request.include, request.exclude),
      maxFileSize: request.maxFileSize,
      logger: context.logger,
      signal: stop.signal,
      timeout: context.timeout,
    };
    // rg that dies, crashes or times out costs this dispatch its content evidence, not the run:
    // the listing still finds files by name and path, and a warning says what was lost.
    const lost: unknown[] = [];
    const searches = chunkPatterns(patterns).map((chunk) =>
      limit(() => runRipgrep({ ...run, patterns: chunk }, (match) => collector.add(match))).catch((error: unknown) => {
        if (!isSearchFailure(error) || context.signal?.aborted) throw error;
        lost.push(error);
      }),
    );
    const stopOnFailure = <T>(p: Promise<T>): Promise<T> => p.catch((error: unknown) => failFast(stop, error));
    // Wait for every run to end (a killed rg included) before reporting, so no process outlives the call.
    const settled = await Promise.allSettled([stopOnFailure(listing), ...searches.map(stopOnFailure)]);
    throwIfAborted(context.signal);
    const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (failures.length > 0) throw failures.find((e) => !isAbortError(e)) ?? failures[0];
    if (lost.length > 0) context.warnOnce(`content search failed (${(lost[0] as Error).message}); results rest on file names and paths`);
    const list = (settled[0] as PromiseFulfilledResult<FileList>).value;
    return rankCandidates({ query, list, evidence: collector.files(), maxCandidates: request.maxCandidates });
  } finally {
    context.signal?.removeEventListener('abort', onAbort);
  }
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

/** rg ran and failed (crashed, killed, timed out, unreadable output); not a missing rg, not an abort. */
function isSearchFailure(error: unknown): boolean {
  return isCtxloopError(error) && error.code === 'search_failed';
}

/** Stops the other runs, then rethrows: the first failure is the one reported. */
function failFast(stop: AbortController, error: unknown): never {
  stop.abort();
  throw error;
}

/** Waits for `promise` unless the signal fires first; the shared work itself goes on for other callers. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
