/**
 * The retrieval subagent: one dispatch runs the file listing and the content search in
 * parallel, then merges the evidence per file. The listing is cached for the searcher's
 * lifetime, keyed by everything that shapes it.
 */
import pLimit from 'p-limit';
import type { SearchRequest, SearchScope, Searcher } from '../core/deps.js';
import { abortError, throwIfAborted } from '../core/errors.js';
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
}

export function createSearcher(options: SearcherOptions = {}): Searcher {
  const logger = options.logger ?? silentLogger;
  const env = options.env ?? process.env;
  let rgPath: Promise<string> | undefined;
  const lists = new Map<string, Promise<FileList>>();

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
      return dispatch(request, { rgPath: await rgPath, listOf, logger, signal });
    },
  };
}

interface DispatchContext {
  rgPath: string;
  listOf: (scope: SearchScope) => Promise<FileList>;
  logger: Logger;
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
    };
    const searches = chunkPatterns(patterns).map((chunk) => limit(() => runRipgrep({ ...run, patterns: chunk }, (match) => collector.add(match))));
    const failures: unknown[] = [];
    const stopOnFailure = <T>(p: Promise<T>): Promise<T> => p.catch((error: unknown) => failFast(stop, error, failures));
    // every rg run has exited before the dispatch returns or throws: none outlives an abort
    const [listed] = await Promise.all([Promise.allSettled([stopOnFailure(listing)]), Promise.allSettled(searches.map(stopOnFailure))]);
    if (failures.length > 0) throw failures[0];
    const list = listed[0];
    if (list?.status !== 'fulfilled') throw abortError();
    throwIfAborted(context.signal);
    return rankCandidates({ query, list: list.value, evidence: collector.files(), maxCandidates: request.maxCandidates });
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

/** Stops the other runs and records the failure: the first one is the one reported. */
function failFast(stop: AbortController, error: unknown, failures: unknown[]): never {
  failures.push(error);
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
