import { appendFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { runInNewContext } from 'node:vm';
import envPaths from 'env-paths';
import { isInsideRoot, realpathOfDeepest } from '../core/inside.js';
import { makeDirectory } from '../core/make-directory.js';
import { withRegularFile } from '../core/regular-file.js';
import { CtxloopError, isAbortError, isCtxloopError, isUsageError, toError, UsageError } from '../core/errors.js';
import { writeOutput, type OutputStream } from '../cli/write.js';
import { EVAL_USAGE, parseEvalArgs, type EvalCommandOptions } from './args.js';
import { readDataset } from './dataset.js';
import { createProgress, type ProgressStream } from './progress-bar.js';
import { buildReport, renderReport, renderReportJson } from './report.js';
import { runEval } from './run.js';
import type { EvalTask } from './types.js';

/** The CLI's `Io` (cli/io.ts) without stdin: process streams in the binary, in-memory ones in tests. */
export interface EvalIo {
  stdout: OutputStream;
  /** `columns` sizes the progress bar on a terminal. */
  stderr: OutputStream & ProgressStream;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Stops the run between tasks (SIGINT). */
  signal?: AbortSignal;
}

/** `ctxloop eval`: argv → run → report on stdout. Returns the exit code (0, 1, 2 or 130). */
export async function evalCommand(argv: string[], io: EvalIo): Promise<number> {
  let json = argv.includes('--json');
  try {
    const options = parseEvalArgs(argv, io.cwd);
    if (options === 'help') {
      await writeOutput(EVAL_USAGE, io.stdout);
      return 0;
    }
    json = options.json;
    await runCommand(options, io);
    return 0;
  } catch (error) {
    return await reportFailure(error, io, json);
  }
}

async function runCommand(options: EvalCommandOptions, io: EvalIo): Promise<void> {
  const tasks = selectTasks(await readDataset(options.dataset), options);
  await requireDirectory(options.repos);
  const workDir = options.work ?? join(envPaths('ctxloop', { suffix: '' }).cache, 'eval');
  const out = options.out ?? join(workDir, 'runs', `${options.method}-${timestamp()}.jsonl`);
  await refuseOverlap(options.repos, workDir, options.dataset, out);
  await makeWorkDirectory(workDir, '--work');
  if ((await stat(out).catch(() => undefined))?.isDirectory()) throw new UsageError('bad_option', `--out ${out} is a directory: give a file to write the records to`);
  await refuseOtherContent(out);
  await writing(out, async () => {
    await makeDirectory(dirname(out));
    await writeFile(out, '');
  });
  await writeOutput(`ctxloop: ${options.method} on ${tasks.length} task${tasks.length === 1 ? '' : 's'}, work dir ${workDir}, records in ${out}\n`, io.stderr);
  const progress = createProgress(io.stderr);
  const records = await runEval({
    tasks,
    reposDir: options.repos,
    workDir,
    method: options.method,
    cycle1: options.compareCycles,
    cache: options.cache,
    model: { provider: options.provider, ...(options.model === undefined ? {} : { model: options.model }) },
    ...(options.maxCycles === undefined ? {} : { maxCycles: options.maxCycles }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    onRecord: async (record, done, total) => {
      await writing(out, () => appendFile(out, JSON.stringify(record) + '\n'));
      progress.update(record, done, total);
    },
  }).finally(() => progress.finish());
  const report = buildReport(records, { method: options.method, dataset: options.dataset, out });
  await writeOutput(options.json ? renderReportJson(report) : renderReport(report), io.stdout);
}

/**
 * The work dir is this command's to wipe (clones are reset, cleaned and re-made there), so it may
 * not be, hold or lie in the mirrors: `--work DIR --repos DIR` deleted the mirrors, or reset a
 * clone's branches and uncommitted work. And the records may not overwrite the dataset.
 */
async function refuseOverlap(repos: string, workDir: string, dataset: string, out: string): Promise<void> {
  // each as it leads once made: links followed as far as the path exists
  const [mirrors, work, tasks, records] = await Promise.all([repos, workDir, dataset, out].map((path) => realpathOfDeepest(resolve(path))));
  if (isInsideRoot(mirrors!, work!) || isInsideRoot(work!, mirrors!)) {
    throw new UsageError('bad_option', `--work ${workDir} overlaps --repos ${repos}: the work dir's clones are reset and deleted, so give a directory apart from the mirrors`);
  }
  if (tasks === records) throw new UsageError('bad_option', `--out ${out} is the dataset: give another file for the records`);
  if (isInsideRoot(mirrors!, records!)) throw new UsageError('bad_option', `--out ${out} is inside --repos ${repos}: give a file apart from the mirrors`);
  // the work dir's repository folders are deleted and cleaned: records belong at its top or in its runs/
  const inWork = isInsideRoot(work!, records!) ? relative(work!, records!) : undefined;
  if (inWork !== undefined && inWork.includes(sep) && !isInsideRoot(join(work!, 'runs'), records!)) {
    throw new UsageError('bad_option', `--out ${out} is inside a folder of --work ${workDir}, which checkouts clean: give a file at its top, in its runs/, or elsewhere`);
  }
}

/**
 * An existing records file is written over (a run repeated with the same `--out`); any other file
 * is not: a file of the user's, or the dataset through a hard link, was emptied and refilled.
 */
async function refuseOtherContent(out: string): Promise<void> {
  let head = '';
  try {
    // a FIFO or a device in its place is not opened to be read (a plain open waits on a FIFO)
    head = await withRegularFile(out, async (file) => {
      const buffer = Buffer.alloc(64 * 1024);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      return buffer.toString('utf8', 0, bytesRead);
    });
  } catch {
    return; // missing, unreadable or not a regular file: writing it says what is wrong
  }
  if (head.trim() === '') return;
  const first = head.split('\n', 1)[0]!;
  let record: unknown;
  try {
    record = JSON.parse(first);
  } catch {
    record = undefined;
  }
  const isRecord = typeof record === 'object' && record !== null && typeof (record as { method?: unknown }).method === 'string' && typeof (record as { id?: unknown }).id === 'string' && ('ranking' in record || 'error' in record);
  if (!isRecord) throw new UsageError('bad_option', `--out ${out} holds something other than eval records: it is not written over (remove it or give another file)`);
}

/** What `--only` may take to test every task id: a regular expression that backtracks without end (`(.*)*x`) would hang the command. */
const ONLY_TIMEOUT_MS = 2000;

function selectTasks(tasks: EvalTask[], options: EvalCommandOptions): EvalTask[] {
  const only = options.only;
  const selected = (only ? matchIds(only, tasks) : tasks).slice(0, options.limit);
  if (selected.length === 0) throw new UsageError('bad_option', `no task of ${options.dataset} matches --only ${only?.source ?? ''}`.trimEnd());
  return selected;
}

/** The tasks whose id `only` matches, tested in a context that is stopped past `ONLY_TIMEOUT_MS`. */
function matchIds(only: RegExp, tasks: EvalTask[]): EvalTask[] {
  let matched: boolean[];
  try {
    matched = runInNewContext('ids.map((id) => only.test(id))', { only, ids: tasks.map((task) => task.id) }, { timeout: ONLY_TIMEOUT_MS }) as boolean[];
  } catch (error) {
    throw new UsageError('bad_option', `--only ${only.source} took over ${ONLY_TIMEOUT_MS / 1000} s to test the ids of ${tasks.length} task(s) (it backtracks without end)`, { hint: 'write it without nested repetition such as (a+)+ or (.*)*', cause: error });
  }
  return tasks.filter((_, i) => matched[i] === true);
}

/** The work directory, made when missing (`makeDirectory`); a file in its place is the user's to fix. */
async function makeWorkDirectory(dir: string, flag: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (info && !info.isDirectory()) throw new UsageError('bad_option', `${flag} ${dir} is not a directory`);
  await writing(dir, () => makeDirectory(dir));
}

/** A write that fails (a full disk, no permission, a file where a directory should be) is one line. */
async function writing<T>(path: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? toError(error).message;
    throw new CtxloopError('fs_error', `cannot write ${path}: ${reason}`, { cause: error });
  }
}

async function requireDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new UsageError('root_not_found', `--repos ${dir} is not a directory`);
}

async function reportFailure(error: unknown, io: EvalIo, json: boolean): Promise<number> {
  const err = toError(error);
  const code = isAbortError(err) ? 130 : isUsageError(err) ? 2 : 1;
  const known = isCtxloopError(err);
  const lines = [`ctxloop: ${err.message}`];
  if (known && err.hint) lines.push(err.hint);
  // Anything but our own errors is a bug: keep its stack.
  if (!known && err.stack) lines.push(err.stack, 'ctxloop: this is a bug, please report it');
  await writeOutput(lines.join('\n') + '\n', io.stderr);
  if (json) await writeOutput(JSON.stringify({ error: { code: known ? err.code : 'internal', message: err.message } }) + '\n', io.stdout);
  return code;
}

function timestamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}
