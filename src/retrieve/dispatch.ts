/**
 * The retrieval subagent. One dispatch: the listing (`rg --files`) and a scan counting the
 * query's new terms in every file (`rg --only-matching`) run in parallel; the files are ranked
 * on those counts; then the candidates kept are scanned again, alone, for the terms of each
 * line, and their best lines read (`hits.ts`), and their sizes taken. The listing and the term counts are kept for the
 * searcher's lifetime, keyed by everything that shapes them, so a later cycle scans only the
 * terms it adds.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Cache, SearchRequest, SearchScope, Searcher } from '../core/deps.js';
import { isAbortError, isCtxloopError, throwIfAborted, UsageError } from '../core/errors.js';
import { silentLogger, type Logger } from '../core/log.js';
import type { Candidate, DispatchResult } from '../core/types.js';
import { ripgrepSkipGlobs } from './filters.js';
import { listSearchableFiles, type FileList } from './list.js';
import { filterIgnored, parentIgnores, type ParentRules } from './parent-ignore.js';
import { includeForRg, normalizeGlobs } from './match.js';
import { rankCandidates } from './rank.js';
import { resolveRgPath } from './rg-path.js';
import { isStuckError, isTimeout, pathArgs, runRg, type RgProcess } from './rg-process.js';
import { FileReads, readEvidenceLines, type KeptScan } from './hits.js';
import { LineIndex } from './line-index.js';
import { MatchLog } from './match-log.js';
import type { FragmentTerms } from './scan-reader.js';
import { scanTerms, type FileTally, type ScanRun, type ScanTerms } from './scan.js';
import { resolveScopeEntries } from './scope.js';
import { createSearchStore, type SearchStore } from './search-store.js';
import { statFiles, type FileStats } from './snapshot.js';
import { sampleLoad, scanWithinBudget } from './term-budget.js';
import { TermIndex, type TermKey } from './term-index.js';

export interface SearcherOptions {
  /** Receives which ripgrep is used and partial-failure warnings. */
  logger?: Logger;
  /** Read for `CTXLOOP_RG` and `PATH`. @default process.env */
  env?: Record<string, string | undefined>;
  /** Where the term index is kept between runs (the cache of the root searched); none: every run scans. */
  cache?: Cache;
  /** Milliseconds one rg process may run before it is killed. @default 60000 */
  timeout?: number;
}

export function createSearcher(options: SearcherOptions = {}): Searcher {
  // One warning per distinct message: the listing and every scan of a run meet the same
  // unreadable file, and a broken rg fails the same way every cycle.
  const logger = warningsOnce(options.logger ?? silentLogger);
  const env = options.env ?? process.env;
  let rgPath: Promise<string> | undefined;
  const lists = new Map<string, Promise<FileList>>();
  const stats = new Map<string, Promise<FileStats>>();
  const indexes = new Map<string, ScopeIndex>();
  const keyOf = (scope: SearchScope): string => JSON.stringify([scope.root, scope.scope, scope.include, scope.exclude, scope.maxFileSize]);
  const timeout = options.timeout ?? 60_000;
  // rg that ran out of time once in a run would only do it again, a timeout each cycle: later scans go without it
  const hung: { error?: Error } = {};

  const rg = (): Promise<string> => (rgPath ??= resolveRgPath(env, logger));
  const checkedGlobs = new Map<string, Promise<void>>();
  /** The user's globs, read by rg once per set: a glob it cannot parse is refused even when no content scan would run (a task without terms, a warm index). */
  const globsChecked = (scope: SearchScope, path: string, signal?: AbortSignal): Promise<void> => {
    const globs = userGlobs(scope.include, scope.exclude);
    if (globs.length === 0) return Promise.resolve();
    const key = JSON.stringify(globs);
    let checked = checkedGlobs.get(key);
    if (!checked) {
      checked = checkGlobs(globs, { rgPath: path, root: scope.root, logger, signal, timeout });
      checkedGlobs.set(key, checked);
      checked.catch(() => checkedGlobs.delete(key));
    }
    return checked;
  };
  /** The listing is shared by the calls of a run; the call that starts it lends it its signal, so no rg outlives an aborted run. */
  const listOf = (scope: SearchScope, signal?: AbortSignal): Promise<FileList> => {
    const key = keyOf(scope);
    let list = lists.get(key);
    if (!list) {
      // read alongside the listing: the rules of the .gitignore files above a root inside a git worktree
      const above = parentIgnores(scope.root);
      const listed = rg().then((path) =>
        listSearchableFiles(scope, { rgPath: path, logger, signal, timeout }).catch(async (error: unknown) => {
          // rg that crashes, hangs or prints garbage costs speed, not the run: fast-glob lists instead
          if (!isSearchFailure(error) || signal?.aborted) throw error;
          if (isTimeout(error)) hung.error ??= error as Error;
          logger.warn(`ripgrep could not list the files (${(error as Error).message}); listing them with fast-glob instead`);
          // loaded on use: fast-glob and the JavaScript ignore rules are the fallback only
          const glob = await import('./glob.js');
          const listed = await glob.listFilesByGlob(scope);
          if (listed.droppedRules > 0) {
            logger.warn(`the ignore files under ${scope.root}: ${glob.notAppliedRules(listed.droppedRules, listed.unsafeRules)}`);
          }
          if (listed.stoppedAt !== undefined) logger.warn(`listing ${scope.root} stopped at ${listed.stoppedAt.toLocaleString('en-US')} files: the rest is not searched (narrow the run with --scope)`);
          const files = listed.files.map((f) => f.path);
          return { files, avgSize: files.length === 0 ? 0 : listed.files.reduce((sum, f) => sum + f.size, 0) / files.length, skipped: listed.skipped };
        }),
      );
      list = Promise.all([listed, above]).then(([found, rules]) => (rules ? withoutIgnored(found, rules, logger, signal) : found));
      lists.set(key, list);
      // a failed listing is not remembered: the next call tries again
      list.catch(() => lists.delete(key));
    }
    return list;
  };
  /** Every listed file stated once, for the index kept between runs and for whoever else compares states. */
  const statsOf = (scope: SearchScope, signal?: AbortSignal): Promise<FileStats> => {
    const key = keyOf(scope);
    let found = stats.get(key);
    if (!found) {
      found = listOf(scope, signal).then((list) => statFiles(scope.root, list.files));
      stats.set(key, found);
      found.catch(() => stats.delete(key));
    }
    return found;
  };
  const indexOf = (scope: SearchScope, path: string): ScopeIndex => {
    const key = keyOf(scope);
    let index = indexes.get(key);
    if (!index) {
      const made: ScopeIndex = { terms: new TermIndex(), lines: new LineIndex(), kept: [], files: new FileReads(), sizes: new Map(), unsaved: new Set() };
      const cache = options.cache;
      if (cache) {
        made.store = createSearchStore({
          cache,
          key: storeKeyOf(scope, path),
          listing: () => listOf(scope),
          stats: () => statsOf(scope),
          scanFiles: (terms, paths, record) => scanTerms({ ...scanSettings(scope, path, logger, timeout, made), paths, terms }, record),
          logger,
        });
      }
      indexes.set(key, (index = made));
    }
    return index;
  };

  return {
    async listFiles(scope, signal) {
      const list = await listOf(scope, signal);
      throwIfAborted(signal);
      return list.files;
    },

    async statFiles(scope, signal) {
      const [list, found] = await Promise.all([listOf(scope, signal), statsOf(scope, signal)]);
      throwIfAborted(signal);
      return { files: list.files, mtimes: found.mtimes, sizes: found.sizes, ctimes: found.ctimes, inos: found.inos };
    },

    async search(request, signal) {
      throwIfAborted(signal);
      const path = await rg();
      await globsChecked(request, path, signal);
      return dispatch(request, { rgPath: path, listOf, index: indexOf(request, path), logger, timeout, signal, hung });
    },
  };
}

/** The listing without the files the rules above its root ignore, counted as `ignored`. */
async function withoutIgnored(list: FileList, rules: ParentRules, logger: Logger, signal?: AbortSignal): Promise<FileList> {
  const files = await filterIgnored(list.files, rules, (message) => logger.warn(message), signal);
  const dropped = list.files.length - files.length;
  return dropped === 0 ? list : { ...list, files, skipped: { ...list.skipped, ignored: (list.skipped.ignored ?? 0) + dropped } };
}

/** `logger`, with each distinct warning passed on once. */
function warningsOnce(logger: Logger): Logger {
  const said = new Set<string>();
  return {
    debug: (message) => logger.debug(message),
    info: (message) => logger.info(message),
    warn: (message) => {
      if (said.has(message)) return;
      said.add(message);
      logger.warn(message);
    },
    error: (message) => logger.error(message),
  };
}

/** The terms known for one scope, and where they are kept between runs. */
interface ScopeIndex {
  terms: TermIndex;
  lines: LineIndex;
  /** The content scans of this searcher's lifetime (a run) that kept their matches. */
  kept: KeptScan[];
  /** The candidates' files read this run for their evidence lines, and their sizes. */
  files: FileReads;
  sizes: Map<string, number>;
  store?: SearchStore;
  /** Terms searched this run that come from a secret: never kept between runs. */
  unsaved: Set<string>;
  /**
   * A content scan could not read some files this run: their counts (none) are not kept
   * between runs, or a file made readable again, its times unchanged, would stay empty.
   */
  unreadable?: boolean;
}

/** What the index kept between runs depends on: another scope, size limit, skip list or rg, another index. */
function storeKeyOf(scope: SearchScope, rgPath: string): string {
  const shape = JSON.stringify([scope.scope, scope.include, scope.exclude, scope.maxFileSize, ripgrepSkipGlobs(), rgPath]);
  return createHash('sha1').update(shape).digest('hex');
}

/** How every content scan of a scope runs; a file one of them could not read marks the scope's index `unreadable`. */
function scanSettings(request: SearchScope, rgPath: string, logger: Logger, timeout: number, index: ScopeIndex): Omit<ScanRun, 'paths' | 'terms'> {
  return { rgPath, root: request.root, iglobs: ripgrepSkipGlobs(), globs: userGlobs(request.include, request.exclude), maxFileSize: request.maxFileSize, logger, timeout, onSkippedFiles: () => (index.unreadable = true) };
}

interface DispatchContext {
  rgPath: string;
  listOf: (scope: SearchScope, signal?: AbortSignal) => Promise<FileList>;
  index: ScopeIndex;
  logger: Logger;
  /** The first time rg ran out of time in this searcher's life: no content scan starts after it. */
  hung: { error?: Error };
  timeout: number;
  signal: AbortSignal | undefined;
}

async function dispatch(request: SearchRequest, context: DispatchContext): Promise<DispatchResult> {
  const { query } = request;
  for (const term of request.unsaved ?? []) context.index.unsaved.add(term);
  const near = request.near && request.near.paths.length > 0 && !request.near.paths.includes('') ? request.near : undefined;
  // counted in part of the scope: their postings are this run's alone
  for (const keyword of near?.keywords ?? []) context.index.unsaved.add(keyword);
  const entries = await resolveScopeEntries(request.root, request.scope);
  throwIfAborted(context.signal);
  // a literal spanning lines, or holding a NUL, can match no line: nothing to count
  const terms = { keywords: query.keywords, literals: query.literals.filter((l) => l.trim() !== '' && !/[\r\n\0]/.test(l)), symbols: query.symbols };
  // one failed run stops its siblings instead of letting them finish for nothing
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  context.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const run = { ...scanSettings(request, context.rgPath, context.logger, context.timeout, context.index), paths: [...entries.dirs, ...entries.files.map((f) => f.path)], signal: stop.signal };
    const { store } = context.index;
    // not raced against the signal: a listing this call started is killed by it, and waited for
    const listing = context.listOf(request, stop.signal);
    // rg that dies, crashes or times out costs this dispatch its content evidence, not the run:
    // the listing still finds files by name and path, and a warning says what was lost.
    const failed: { error?: Error } = {};
    // What each content scan printed, kept for the run: the candidates' lines are had from it, this
    // cycle and later. A scan of `paths` alone (near the strongest files) is kept the same way: a
    // candidate outside them holds none of its names, as its counts say.
    const scanOnce = async (fresh: ScanTerms, record: (path: string, tally: FileTally) => void, signal: AbortSignal | undefined, paths: readonly string[] = run.paths): Promise<void> => {
      const log = new MatchLog<FragmentTerms>();
      await scanTerms({ ...run, paths, terms: fresh, matchLog: log, signal }, record);
      if (!log.overflowed) context.index.kept.push({ terms: fresh, log });
    };
    // in a large repository, bounded by a sample of its files (term-budget.ts); the keywords
    // looked for near the strongest files after it, over those paths alone (a restarted scan's
    // `reset` would forget them otherwise)
    const scan = async (fresh: ScanTerms, record: (path: string, tally: FileTally) => void, reset: () => void) => {
      const nearby = new Set(near?.keywords ?? []);
      const whole: ScanTerms = { ...fresh, keywords: fresh.keywords.filter((k) => !nearby.has(k)) };
      const close = fresh.keywords.filter((k) => nearby.has(k));
      const leftOut = whole.keywords.length + whole.literals.length + whole.symbols.length === 0 ? [] : await scanWholly(whole, record, reset);
      if (near && close.length > 0) await scanOnce({ keywords: close, literals: [], symbols: [] }, record, stop.signal, near.paths);
      return leftOut;
    };
    const scanWholly = async (fresh: ScanTerms, record: (path: string, tally: FileTally) => void, reset: () => void) => {
      const leftOut = await scanWithinBudget({
        terms: fresh,
        listing,
        scan: (terms, signal) => scanOnce(terms, record, signal),
        sample: (paths, terms) => sampleLoad(run, paths, terms),
        reset,
        signal: stop.signal,
      });
      if (leftOut.length > 0) context.logger.info(`content scan: ${leftOut.length} term(s) held by most files not counted, to bound the scan of a repository this large: ${leftOut.map((t) => t.value).join(', ')}`);
      return leftOut;
    };
    const ensure = (): Promise<void> => context.index.terms.ensure(terms, { ...(store ? { restore: (keys: TermKey[]) => store.restore(keys) } : {}), scan });
    // rg stuck on a named pipe (a FIFO .gitignore below the root) was stopped: once more without VCS ignore files, which the listing applies
    const ensureOnce = (): Promise<void> =>
      ensure().catch((error: unknown) => {
        if (!isStuckError(error) || context.signal?.aborted) throw error;
        context.logger.warn(`${(error as Error).message}; the content is searched without .gitignore files, and the listing applies them`);
        return ensure();
      });
    const scanning = (context.hung.error ? Promise.reject(context.hung.error) : ensureOnce())
      .then(() => (context.index.unreadable ? undefined : store?.save(context.index.terms, [...context.index.unsaved])))
      .catch((error: unknown) => {
        if (!isSearchFailure(error) || context.signal?.aborted) throw error;
        if (isTimeout(error)) context.hung.error ??= error as Error;
        failed.error = error as Error;
      });
    const stopOnFailure = <T>(p: Promise<T>): Promise<T> => p.catch((error: unknown) => failFast(stop, error));
    // Wait for every run to end (a killed rg included) before reporting, so no process outlives the call.
    const settled = await Promise.allSettled([stopOnFailure(listing), stopOnFailure(scanning)]);
    throwIfAborted(context.signal);
    const failures = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (failures.length > 0) throw failures.find((e) => !isAbortError(e)) ?? failures[0];
    const list = (settled[0] as PromiseFulfilledResult<FileList>).value;
    if (failed.error) context.logger.warn(`content search failed (${failed.error.message}); results rest on file names and paths`);
    const evidence = failed.error ? new Map() : context.index.terms.evidenceFor(terms);
    const ranked = rankCandidates({ query, list, evidence, maxCandidates: request.maxCandidates, leftOut: context.index.terms.leftOutDocFreq(query.keywords) });
    const counted = context.index.terms.counted(terms);
    await Promise.all([
      failed.error
        ? undefined
        : readEvidenceLines(ranked.candidates, counted, run, context.index.lines, context.index.kept, context.index.files).catch((error: unknown) => {
            if (!isSearchFailure(error) || context.signal?.aborted) throw error;
            context.logger.warn(`reading the evidence lines failed (${(error as Error).message}); candidates keep their counts`);
          }),
      readSizes(ranked.candidates, request.root, context.index.sizes),
    ]);
    throwIfAborted(context.signal);
    return ranked;
  } finally {
    context.signal?.removeEventListener('abort', onAbort);
  }
}

/** Each candidate's size, stated once a run (`sizes`, kept for the later cycles). */
async function readSizes(candidates: Candidate[], root: string, sizes: Map<string, number>): Promise<void> {
  await Promise.all(
    candidates.map(async (c) => {
      const known = sizes.get(c.path);
      if (known !== undefined) {
        c.size = known;
        return;
      }
      try {
        c.size = (await stat(join(root, c.path))).size;
        sizes.set(c.path, c.size);
      } catch {
        // vanished since it was listed: a size of 0, and the facts reader will skip it
      }
    }),
  );
}

/**
 * More user globs than this, or longer together, are not handed to rg: thousands of them (a
 * generated exclude list) outgrow the automaton rg builds from them ("error building NFA"), or
 * the command line. The scan then reads those files too, and the listing's filter drops them.
 */
const MAX_RG_GLOBS = 1000;
const MAX_RG_GLOB_CHARS = 64 * 1024;

/**
 * The user's include and exclude globs for rg, excludes last so they win. rg reads them as
 * `createPathMatcher` does (a name without a slash matches at any depth, a trailing slash
 * directories only; an include's directory contents are spelled out for it); its results are
 * still filtered through the listing, so no file the listing left out can get through, and
 * the globs are only a saving: none at all past `MAX_RG_GLOBS`.
 */
function userGlobs(include: readonly string[], exclude: readonly string[]): string[] {
  const included = normalizeGlobs(include).flatMap(includeForRg);
  // rg reads a trailing slash as the listing does: directories only
  const excluded = normalizeGlobs(exclude).map((g) => `!${g}`);
  const globs = [...included, ...excluded];
  const chars = globs.reduce((sum, g) => sum + g.length, 0);
  return globs.length > MAX_RG_GLOBS || chars > MAX_RG_GLOB_CHARS ? [] : globs;
}

/**
 * The user's include and exclude globs reach rg in the content scan only (the listing applies
 * them itself, with picomatch, which reads almost anything): one rg cannot parse is theirs to fix,
 * not a failed search to warn about and go on without. rg reads them here on a listing of the
 * root alone (`--max-depth 0`: nothing is read); any other failure is left to the scan to meet.
 */
async function checkGlobs(globs: readonly string[], run: Omit<RgProcess, 'args'>): Promise<void> {
  try {
    await runRg({ ...run, args: ['--no-config', '--files', '--max-depth', '0', ...globs.flatMap((g) => ['--glob', g]), ...pathArgs([''])] }, () => undefined);
  } catch (error) {
    const bad = /error parsing glob .*/.exec((error as Error).message);
    if (bad) throw new UsageError('bad_option', `an include or exclude glob is not valid: ${bad[0]}`, { hint: 'check --include, --exclude and the config file; a literal [ or { is written [[] or [{]' });
    if (isAbortError(error)) throw error;
  }
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
