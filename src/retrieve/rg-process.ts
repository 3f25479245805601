/**
 * Runs one ripgrep process: an argument array (never a shell string), patterns on stdin when
 * given, stdout split into lines as it streams, and one reading of the exit status for every
 * kind of run (listing, identifier scan, JSON lines).
 */
import { spawn } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { abortError, SearchError, throwIfAborted, UsageError } from '../core/errors.js';
import { isInsideRoot } from '../core/inside.js';
import type { Logger } from '../core/log.js';

export interface RgProcess {
  rgPath: string;
  /** Absolute root: rg runs there, so the paths it prints are root-relative. */
  root: string;
  args: readonly string[];
  /** Written to rg's stdin (patterns for `-f -`); stdin is closed at once otherwise. */
  stdin?: string;
  /** What ends a record on stdout: `\n`, or NUL for `--files --null`. @default '\n' */
  separator?: '\n' | '\0';
  logger: Logger;
  signal?: AbortSignal | undefined;
  /** Milliseconds rg may run before it is killed and the run fails with `search_failed`. */
  timeout?: number | undefined;
  /** Called when rg finished but could not read some files (their matches are missing). */
  onSkippedFiles?: (() => void) | undefined;
  /** Bytes of memory rg may hold (Linux, where it can be read) before it is stopped. @default 2 GB */
  maxMemory?: number | undefined;
  /** Called with what rg said on stderr (trimmed, non-empty lines) when it succeeded all the same: ignore rules it could not read. */
  onNotes?: ((lines: readonly string[]) => void) | undefined;
}

export interface RgExit {
  /** True when the caller saw rg finish its search (`--json`'s summary); other modes judge by stderr. */
  finished?: boolean;
}


/** rg in a process group of its own, so that what it starts is killed with it (Windows has no groups). */
const OWN_GROUP = process.platform !== 'win32';

/**
 * The groups of the rg processes running. The process may end without a run's abort reaching
 * them (`process.exit` on a second Ctrl-C, a host's SIGTERM handled elsewhere): rg, in a group of
 * its own, lived on, one of them blocked on a FIFO for minutes with 300 MB. On exit they are killed.
 */
const liveGroups = new Set<number>();
let killOnExit = false;

function trackGroup(pid: number | undefined): void {
  if (!OWN_GROUP || pid === undefined) return;
  liveGroups.add(pid);
  if (killOnExit) return;
  killOnExit = true;
  process.on('exit', () => {
    for (const group of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  });
}

/**
 * Memory rg may hold: ten times what a search of 100,000 files needs (about 200 MB). A
 * `.gitignore` of 100,000 lines takes rg past it too; the listing then falls back to fast-glob.
 */
const MAX_RG_MEMORY = 2e9;

/**
 * Watches a process through Linux `/proc` every quarter second: `over` is called once its
 * resident memory passes `max` (pages taken as 4 kB: larger pages only make the bound looser),
 * `stuck` once, two looks in a row, one of its threads has waited for the other end of a named
 * pipe (a `.gitignore` below the root that is a FIFO: rg opens it and waits for a writer that
 * never comes, until its timeout) or it has held a device open (`holdsDevice`). The caller stops the watch when the process exits, before its
 * pid can be another's.
 */
function watchProcess(pid: number | undefined, max: number, on: { over: () => void; stuck: () => void }): NodeJS.Timeout | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  let waiting = 0;
  const timer = setInterval(() => {
    let resident: number;
    try {
      resident = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * 4096;
    } catch {
      clearInterval(timer); // gone
      return;
    }
    if (resident > max) {
      clearInterval(timer);
      on.over();
      return;
    }
    waiting = waitsOnFifo(pid) || holdsDevice(pid) ? waiting + 1 : 0;
    if (waiting >= 2) {
      clearInterval(timer);
      on.stuck();
    }
  }, 250);
  timer.unref();
  return timer;
}

/**
 * The process holds open a device or a kernel file: rg opens only directories and regular files
 * of a repository, so that is a `.gitignore` linked to one (`/dev/ptmx` or `/dev/tty` block on
 * read; `/proc/kmsg` blocks and consumes the kernel's log), read until the timeout. Told by what
 * the file is, not only where: a repository in `/dev/shm` (tmpfs) holds regular files under
 * `/dev/`, and was taken for stuck once rg ran half a second (its content search lost).
 */
export function holdsDevice(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      if (Number(fd) <= 2) return false; // its pipes to us
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (!/^\/(?:dev|proc|sys)\//.test(target)) return false;
        const info = statSync(`/proc/${pid}/fd/${fd}`); // the open file itself
        if (info.isDirectory()) return false;
        // a kernel file of /proc or /sys is a regular file to stat; under /dev, only a device is one
        return !target.startsWith('/dev/') || !info.isFile();
      } catch {
        return false; // closed meanwhile
      }
    });
  } catch {
    return false; // gone, or not ours to read
  }
}

/** One of the process's threads is opening a FIFO and waiting for its other end (the kernel's `wait_for_partner`). */
function waitsOnFifo(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((task) => readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8').trim() === 'wait_for_partner');
  } catch {
    return false; // gone, or a kernel that does not say
  }
}

/**
 * Roots where rg was found stuck on a named pipe or a device: from then on (for this process) they are
 * searched without VCS ignore files, and listed without rg (the fallback listing reads regular
 * ignore files only, and every search result is filtered through the listing).
 */
const stuckRoots = new Set<string>();

/** rg was found stuck on a named pipe or a device in `root` earlier in this process. */
export function wasStuckIn(root: string): boolean {
  return stuckRoots.has(root);
}

/** How the errors of an rg this module stopped begin: the checks below read them, so message and check cannot drift apart. */
const TIMED_OUT = 'ripgrep timed out after';
const OUTGREW = 'ripgrep held more than';
const STUCK = 'ripgrep was stuck on a named pipe or a device';

/** The error of an rg stopped because it was stuck on a named pipe or a device. */
export function isStuckError(error: unknown): boolean {
  return error instanceof SearchError && error.message.startsWith(STUCK);
}

/** The error of an rg stopped for running out of its time (`searchTimeout`) or its memory: it would only do it again. */
export function isTimeout(error: unknown): boolean {
  return error instanceof SearchError && (error.message.startsWith(TIMED_OUT) || error.message.startsWith(OUTGREW));
}

/** How long the pipes of an rg that has exited are still read, for a child it left holding them. */
const EXIT_GRACE_MS = 1000;

/**
 * Spawns rg and calls `onLine` with every stdout line (without its `\n`, decoded as UTF-8 with
 * invalid bytes replaced). Exit 1 (no match) is an empty result; exit 2 after a completed search
 * (some files unreadable) keeps the results and warns; any other failure throws `SearchError`.
 * Aborting kills rg and throws `aborted`; rg never outlives the call, nor does anything it
 * started (a wrapper script's rg or background job): outside Windows rg leads a process group of
 * its own, and the group is killed.
 */
export async function runRg(run: RgProcess, onLine: (line: string) => void, exit: RgExit = {}): Promise<void> {
  throwIfAborted(run.signal);
  const child = spawn(run.rgPath, [...run.args], { cwd: run.root, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, detached: OWN_GROUP });
  trackGroup(child.pid);
  // rg's group (its pid) while anything in it may live; the child alone where there are no groups
  const signalAll = (signal: NodeJS.Signals): void => {
    if (OWN_GROUP && child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
        return;
      } catch {
        // the group is gone already
      }
    }
    child.kill(signal);
  };
  // stop reading rg's pipes: a child of its own (a wrapper script's) may hold them open for ever
  const letGoOfPipes = (): void => {
    child.stdout.destroy();
    child.stderr.destroy();
  };
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  // observed below; this keeps an early throw from leaving the rejection unhandled
  exited.catch(() => undefined);
  // rg may exit before reading all its stdin (a bad flag): that is reported by its exit status
  child.stdin.on('error', () => undefined);
  child.stdin.end(run.stdin ?? '');
  const kill = (): void => signalAll('SIGTERM');
  run.signal?.addEventListener('abort', kill, { once: true });
  // A hung rg (a stalled network mount, a broken binary) must not hang the run.
  let timedOut = false;
  const timer =
    run.timeout === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          signalAll('SIGKILL');
          letGoOfPipes();
        }, run.timeout);
  timer?.unref(); // never what keeps the process alive
  // An ignore file that never ends (a `.gitignore` linking to /dev/zero) is read into memory
  // without bound: rg grew to 16 GB before the kernel stopped it, and the machine with it.
  let outgrew = false;
  let stuck = false;
  const watch = watchProcess(child.pid, run.maxMemory ?? MAX_RG_MEMORY, {
    over: () => {
      outgrew = true;
      signalAll('SIGKILL');
      letGoOfPipes();
    },
    stuck: () => {
      stuck = true;
      stuckRoots.add(run.root);
      signalAll('SIGKILL');
      letGoOfPipes();
    },
  });
  child.once('exit', () => clearInterval(watch));
  // Once rg has exited, what it printed is in the pipe, read within moments (it cannot exit with
  // more than a pipe's buffer unread). A child it left behind (a wrapper script's `sleep &`) may
  // hold the pipe open for ever: after a grace period the pipes are let go, and the run goes on.
  // Let go only when nothing came for the whole grace period: the check runs after the event
  // loop's I/O phase (`setImmediate`), so data already waiting in the pipe (a main thread that
  // was busy past the grace) is read first and restarts the wait.
  let orphaned = false;
  let grace: NodeJS.Timeout | undefined;
  const read = { at: Date.now() };
  const letGo = (): void => {
    setImmediate(() => {
      const idle = Date.now() - read.at;
      if (idle < EXIT_GRACE_MS) {
        grace = setTimeout(letGo, EXIT_GRACE_MS - idle);
        grace.unref();
        return;
      }
      orphaned = true;
      letGoOfPipes();
    }).unref();
  };
  child.once('exit', () => {
    read.at = Date.now();
    grace = setTimeout(letGo, EXIT_GRACE_MS);
    grace.unref();
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < 8192) stderr += chunk;
  });
  let drained = false;
  let printed = false;
  try {
    const counted = (line: string): void => {
      printed = true;
      onLine(line);
    };
    await readLines(child.stdout, run.separator === '\0' ? 0 : 0x0a, counted, read).catch((error: unknown) => {
      if (!timedOut && !orphaned && !outgrew && !stuck) throw error;
    });
    drained = true;
  } finally {
    run.signal?.removeEventListener('abort', kill);
    // stopped early by an exception: rg must not outlive the search
    if (!drained) {
      kill();
      clearTimeout(timer);
    }
  }
  const code = await exited
    .catch((error: unknown) => {
      // rg runs in the root: a root removed during the run fails the spawn with ENOENT too, and was blamed on rg
      if (!isDirectory(run.root)) throw new UsageError('root_not_found', `root not found: ${run.root} (it was removed or moved during the run)`, { cause: error });
      throw new SearchError('rg_not_found', `could not start ripgrep at ${run.rgPath}: ${(error as Error).message} (set CTXLOOP_RG to a working rg)`, { cause: error });
    })
    .finally(() => {
      clearTimeout(timer);
      clearTimeout(grace);
      clearInterval(watch);
      // whatever rg left behind in its group (a wrapper's background job) goes with it
      if (OWN_GROUP) signalAll('SIGKILL');
      if (child.pid !== undefined) liveGroups.delete(child.pid);
    });
  if (run.signal?.aborted) throw abortError();
  if (timedOut) throw new SearchError('search_failed', `${TIMED_OUT} ${run.timeout} ms in ${run.root}`);
  if (stuck) throw new SearchError('search_failed', `${STUCK} in ${run.root} (a .gitignore that is one?) and was stopped`);
  if (outgrew) throw new SearchError('search_failed', `${OUTGREW} ${Math.round((run.maxMemory ?? MAX_RG_MEMORY) / 1e6)} MB of memory in ${run.root} and was stopped (an ignore file that never ends, such as a link to /dev/zero?)`);
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  // Every search here prints what it found and exits 0 only when it found something (1 when not):
  // a program exiting 0 in silence is not ripgrep (`CTXLOOP_RG=/bin/true` gave 0 files, unsaid).
  if (code === 0 && !printed && !orphaned) throw new SearchError('search_failed', `${run.rgPath} exited 0 without printing anything, which ripgrep does not do here: is it ripgrep?`);
  if (code === 0 || code === 1) {
    if (lines.length > 0) run.onNotes?.(lines);
    return;
  }
  // rg also exits 2 when it finished but could not read some files, or could not parse a rule of
  // an ignore file above the root (which it reads, `--no-ignore-parent` or not, and does not
  // apply): the matches it found stand. Those rules are notes, as they are when rg exits 0.
  const notes = lines.filter(isIgnoreRuleNote);
  const errors = lines.filter((line) => !isIgnoreRuleNote(line));
  const killedBy = code === null ? child.signalCode : null;
  const said = (errors[0] ?? lines[0])?.replace(/^rg: /, '');
  // a path of 4,000 characters makes a warning nobody reads: its end (the reason) is kept
  const firstLine = said === undefined ? (killedBy ? `killed by ${killedBy}` : `exit code ${String(code)}`) : said.length > 300 ? `…${said.slice(-299)}` : said;
  if (code === 2 && (exit.finished ?? (lines.length > 0 && errors.every(isFileError)))) {
    if (notes.length > 0) run.onNotes?.(notes);
    if (errors.length > 0) {
      run.logger.warn(`ripgrep skipped some files in ${run.root}: ${firstLine}`);
      run.onSkippedFiles?.();
    }
    return;
  }
  throw new SearchError('search_failed', `ripgrep failed in ${run.root}: ${firstLine}`);
}

/** rg's word on an ignore rule it could not parse, or a file of rules too large to compile: that rule, or file, is not applied. */
function isIgnoreRuleNote(line: string): boolean {
  return /: line \d+: error parsing glob |error building NFA/.test(line);
}

/** An error about one file (`path: Permission denied (os error 13)`), after which rg goes on. */
function isFileError(line: string): boolean {
  return /\(os error \d+\)$/.test(line);
}

/**
 * The longest record rg prints: a path, or one match (an identifier run of a file, at most
 * `maxFileSize`). A program printing more without a separator is not rg: `yes` would otherwise
 * be gathered until the timeout.
 */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/**
 * Splits a byte stream into records without decoding across chunk boundaries mid-character. A
 * record spanning chunks is kept as its pieces and joined once, when its separator comes.
 */
async function readLines(stream: AsyncIterable<Buffer>, separator: number, onLine: (line: string) => void, read?: { at: number }): Promise<void> {
  let pieces: Buffer[] = [];
  let pending = 0;
  for await (const chunk of stream) {
    if (read) read.at = Date.now();
    let start = 0;
    let end = chunk.indexOf(separator);
    if (end !== -1 && pending > 0) {
      pieces.push(chunk.subarray(0, end));
      onLine(Buffer.concat(pieces).toString('utf8'));
      pieces = [];
      pending = 0;
      start = end + 1;
      end = chunk.indexOf(separator, start);
    }
    for (; end !== -1; end = chunk.indexOf(separator, start)) {
      onLine(chunk.toString('utf8', start, end));
      start = end + 1;
    }
    if (start < chunk.length) {
      pieces.push(chunk.subarray(start));
      pending += chunk.length - start;
      if (pending > MAX_RECORD_BYTES) throw new SearchError('search_failed', `ripgrep printed a record of more than ${MAX_RECORD_BYTES / 1024 / 1024} MB: not its output`);
    }
  }
  if (pending > 0) onLine(Buffer.concat(pieces).toString('utf8'));
}

export interface RgFilter {
  /** Case-insensitive gitignore-style globs (`!x` excludes). */
  iglobs: readonly string[];
  /** Case-sensitive gitignore-style globs. */
  globs: readonly string[];
  maxFileSize: number;
  /** The root rg runs in: its `.git` decides whether `.git/info/exclude` may be read. */
  root?: string;
}

/**
 * Flags every run shares: .gitignore honoured outside a git repository too, nothing from above
 * the root (the listing applies a git worktree's rules above it: `parent-ignore.ts`) or the
 * user's config. `.git/info/exclude` is read only when `.git` is a real
 * directory: a `.git` link (or a worktree's `gitdir:` file) leads out of the root.
 */
export function commonArgs(filter: RgFilter): string[] {
  return [
    '--no-config',
    '--no-require-git',
    '--no-ignore-parent',
    '--no-ignore-global',
    '--no-ignore-dot',
    ...(filter.root === undefined ? [] : ignoreArgs(filter.root)),
    '--hidden',
    '--glob', '!.git',
    '--max-filesize', String(filter.maxFileSize),
    ...filter.iglobs.flatMap((g) => ['--iglob', g]),
    ...filter.globs.flatMap((g) => ['--glob', g]),
  ];
}

/** rg's path arguments: '' (the root) becomes '.'; `--` keeps a path from reading as a flag. */
export function pathArgs(paths: readonly string[]): string[] {
  return ['--', ...paths.map((p) => (p === '' ? '.' : p))];
}

/** An ignore file larger than this is no ignore file (rg reads it line by line into memory). */
export const MAX_IGNORE_FILE = 16 * 1024 * 1024;

/**
 * The root's `.gitignore` or `.git/info/exclude` when it is something rg must not open: a FIFO
 * (every rg run blocked until its timeout), a device (a link to `/dev/zero` took rg to 16 GB), a
 * directory, a file over 16 MB, or a link to a file outside the root (git does not follow a
 * linked `.gitignore`; rg does, and applied another tree's rules). rg then reads no VCS ignore
 * file at all (`--no-ignore-vcs`).
 */
export function unsafeIgnoreFile(root: string, gitDirectory = hasGitDirectory(root)): string | undefined {
  const files = ['.gitignore', ...(gitDirectory ? [join('.git', 'info', 'exclude')] : [])];
  for (const file of files) {
    let info: Stats;
    try {
      info = statSync(join(root, file));
    } catch {
      continue; // none, or a dangling link: nothing to read
    }
    if (!info.isFile() || info.size > MAX_IGNORE_FILE || leavesRootThroughLink(root, file)) return file;
  }
  return undefined;
}

/** Whether `file` (under `root`) is reached through a link to somewhere outside the root. */
function leavesRootThroughLink(root: string, file: string): boolean {
  try {
    return !isInsideRoot(realpathSync(root), realpathSync(join(root, file)));
  } catch {
    return true; // it exists (stat said so) but cannot be resolved: not read
  }
}

/** The VCS ignore files rg may read in `root`: none from another repository's `.git`, none that is unsafe to open. */
function ignoreArgs(root: string): string[] {
  const gitDirectory = hasGitDirectory(root);
  return [...(gitDirectory ? [] : ['--no-ignore-exclude']), ...(unsafeIgnoreFile(root, gitDirectory) === undefined && !stuckRoots.has(root) ? [] : ['--no-ignore-vcs'])];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True when `root/.git` is a directory itself, not a link or a `gitdir:` file pointing elsewhere. */
function hasGitDirectory(root: string): boolean {
  try {
    return lstatSync(join(root, '.git')).isDirectory();
  } catch {
    return true; // no .git: nothing to read, nothing to refuse
  }
}
