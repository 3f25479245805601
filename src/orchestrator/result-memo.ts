/**
 * The last cache layer: a whole offline result, kept under everything that decides it, and
 * returned again while the repository is in the same state. The key is the task as given, every
 * resolved option that can change a result, the root, ripgrep, the provider (offline only) and
 * the code itself (this package's version and the stat of every file of its code, so any rebuild
 * misses). The state is a fingerprint of the listing (what `rg --files` keeps, so ignore files
 * count through what they leave out) and of every listed file's modification time and size, plus
 * the stat of the root's config and ignore files. Any change → recompute.
 *
 * Like the stamp layer, it trusts the stat: an edit that keeps a file's size and modification time
 * goes unseen. A run whose files changed within the last seconds (or during the run) is not kept,
 * nor one that warned (its result may rest on less than the repository), nor one with a model.
 */
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cache, Searcher } from '../core/deps.js';
import { throwIfAborted } from '../core/errors.js';
import { resultKey } from '../core/keys.js';
import { isSettledAt } from '../core/settle.js';
import type { Logger } from '../core/log.js';
import { readEnv } from '../core/env.js';
import type { ResolvedOptions } from '../core/options.js';
import type { ProgressEvent, RetrieveResult } from '../core/types.js';
import { statFiles } from '../retrieve/snapshot.js';

/** Bump when what a result holds changes shape. */
export const MEMO_FORMAT = 1;

/** Options that change how a run goes, never what it finds. Every other option is part of the key. */
const NOT_DECIDING: ReadonlySet<keyof ResolvedOptions> = new Set(['cacheDir', 'timeout', 'maxRetries', 'deadline', 'searchTimeout', 'concurrency']);

/** Files outside the listing that decide it, or the options: config, and ignore rules rg reads. */
const ROOT_FILES = ['ctxloop.config.json', '.ctxloop.json', '.gitignore', '.ignore', '.rgignore', join('.git', 'info', 'exclude')];

export interface MemoRun {
  task: string;
  options: ResolvedOptions;
  provider: string;
  /** A model takes part, or the caller injected its own searcher, reader or evaluator: never kept. */
  bypass: boolean;
  fallback?: RetrieveResult['fallback'] | undefined;
  cache: Cache;
  searcher: Searcher;
  env: Record<string, string | undefined>;
  logger: Logger;
  /** True once the run has warned (its result may rest on less than the repository). */
  warned: () => boolean;
  signal?: AbortSignal | undefined;
  /** Told `pack` when a kept result answers, as a computed one tells it last. */
  onProgress?: ((event: ProgressEvent) => void) | undefined;
}

/**
 * Runs `compute` unless a result for the same key and repository state is kept; keeps what it
 * computes when that is safe. Without a cache directory (`--no-cache`) it only computes.
 * `compute` gets the cache to use: when the result may be kept, one whose flush waits for it, so
 * the cache file is written once.
 */
export async function runMemoized(run: MemoRun, compute: (cache: Cache) => Promise<RetrieveResult>): Promise<RetrieveResult> {
  if (run.bypass || run.provider !== 'offline' || run.options.cacheDir === null) return compute(run.cache);
  const takenAt = Date.now();
  const key = resultKey({ format: MEMO_FORMAT, code: await codeFingerprint(), ...keyInputs(run) });
  const kept = run.cache.getResult(key);
  // The fingerprint needs the listing, which the run shares (the searcher keeps it), and a stat of
  // every file: taken now only when there is something to compare it with, else alongside the run.
  const state = stateOf(run, takenAt);
  state.catch(() => undefined); // a listing that fails fails the run, which reports it
  if (kept && isResult(kept.result)) {
    const now = await state;
    if (now.fingerprint === kept.state) {
      throwIfAborted(run.signal);
      run.logger.debug('result: kept from an earlier run (same task, options and files)');
      // each call gets its own: a caller that trims or sorts its result changes no later one
      const result = structuredClone(kept.result);
      run.onProgress?.({ type: 'pack', files: result.files.length, tokens: result.tokens });
      return result;
    }
  }
  const result = await compute({ ...run.cache, flush: async () => {} });
  const now = await state.catch(() => undefined);
  if (now && now.settled && !run.warned() && !run.signal?.aborted && isResult(result)) run.cache.setResult(key, { state: now.fingerprint, result: structuredClone(result) });
  await run.cache.flush();
  return result;
}

/** A logger that remembers whether anything warned through it. */
export function watchWarnings(logger: Logger): { logger: Logger; warned: () => boolean } {
  let warned = false;
  return {
    logger: { debug: (m) => logger.debug(m), info: (m) => logger.info(m), warn: (m) => ((warned = true), logger.warn(m)), error: (m) => ((warned = true), logger.error(m)) },
    warned: () => warned,
  };
}

function keyInputs(run: MemoRun): { [key: string]: string | number | boolean | null | string[] } {
  const options: { [key: string]: string | number | boolean | null | string[] } = {};
  for (const [name, value] of Object.entries(run.options)) {
    if (NOT_DECIDING.has(name as keyof ResolvedOptions) || value === undefined) continue;
    options[name] = value as string | number | boolean | string[];
  }
  return { task: run.task, provider: run.provider, fallback: run.fallback?.reason ?? null, rg: readEnv(run.env, 'CTXLOOP_RG') ?? '', options: JSON.stringify(options) };
}

interface State {
  fingerprint: string;
  /** No file modified too close to the run, none vanished between listing and stat. */
  settled: boolean;
}

async function stateOf(run: MemoRun, takenAt: number): Promise<State> {
  const { options } = run;
  const scope = { root: options.root, scope: options.scope, include: options.include, exclude: options.exclude, maxFileSize: options.maxFileSize, concurrency: options.concurrency };
  // the searcher's own stats when it keeps them (the search index shares them), else taken here
  const { files, mtimes, sizes, ctimes, inos } = run.searcher.statFiles
    ? await run.searcher.statFiles(scope, run.signal)
    : await run.searcher.listFiles(scope, run.signal).then(async (listed) => ({ files: listed, ...(await statFiles(options.root, listed)) }));
  const hash = createHash('sha1');
  let settled = true;
  files.forEach((path, i) => {
    const mtime = mtimes[i]!;
    if (!isSettledAt(mtime, takenAt)) settled = false;
    hash.update(`${path}\0${mtime}\0${sizes[i]}\0${ctimes[i]}\0${inos[i]}\n`);
  });
  for (const name of ROOT_FILES) {
    const info = statSync(join(options.root, name), { throwIfNoEntry: false });
    hash.update(`${name}\0${info ? `${info.mtimeMs}\0${info.size}\0${info.ctimeMs}\0${info.ino}` : '-'}\n`);
    if (info && !isSettledAt(info.mtimeMs, takenAt)) settled = false;
  }
  return { fingerprint: hash.digest('hex'), settled };
}

/**
 * A kept value that reads as a result, its scores and token count numbers a printer can show: a
 * malformed one is a miss (a score stored as `null` failed every later run that printed it).
 */
function isResult(value: unknown): value is RetrieveResult {
  const r = value as Partial<RetrieveResult> | undefined;
  if (typeof r !== 'object' || r === null || !Array.isArray(r.files) || !Array.isArray(r.candidates) || !Array.isArray(r.cycles)) return false;
  return isCount(r.tokens) && [...r.files, ...r.candidates].every(isScored);
}

function isScored(file: unknown): boolean {
  const f = file as { path?: unknown; score?: unknown } | null;
  return typeof f === 'object' && f !== null && typeof f.path === 'string' && typeof f.score === 'number' && f.score >= 0 && f.score <= 1;
}

function isCount(n: unknown): boolean {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

let code: Promise<string> | undefined;

/**
 * This package's version and the stat of every file of its code (`dist/`, or `src/` when run from
 * source), taken once a process: a rebuild changes them, so a result of other code is never used.
 */
function codeFingerprint(): Promise<string> {
  code ??= (async () => {
    const here = fileURLToPath(new URL('.', import.meta.url));
    const codeRoot = join(here, '..');
    const hash = createHash('sha1');
    const version = await readFile(join(codeRoot, '..', 'package.json'), 'utf8').catch(() => '');
    hash.update(version);
    const walk = (dir: string): void => {
      const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else {
          const info = statSync(path, { throwIfNoEntry: false });
          hash.update(`${path.slice(codeRoot.length).split(sep).join('/')}\0${info?.mtimeMs}\0${info?.size}\n`);
        }
      }
    };
    try {
      walk(codeRoot);
    } catch {
      // an unreadable code directory: the version alone, and a random part so nothing is shared
      hash.update(String(Math.random()));
    }
    return hash.digest('hex');
  })();
  return code;
}
