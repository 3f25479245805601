/**
 * The one place that runs ripgrep: an argument array (never a shell string), `--json` read
 * line by line as it streams, and the work bounded by rg's own flags.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { abortError, SearchError, throwIfAborted } from '../core/errors.js';
import { toPosix } from '../core/files.js';
import type { Logger } from '../core/log.js';

export interface RipgrepMatch {
  /** Root-relative POSIX path. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The line without its line ending (non-UTF-8 bytes replaced). */
  text: string;
}

export interface RipgrepRun {
  rgPath: string;
  /** Absolute root: rg runs there, so the paths it prints are root-relative. */
  root: string;
  /** Root-relative directories or files to search; '' is the root. */
  paths: readonly string[];
  /** Fixed strings, matched case-insensitively; at most `MAX_PATTERNS_PER_RUN`. */
  patterns: readonly string[];
  /** Case-insensitive gitignore-style globs (`!x` excludes). */
  iglobs: readonly string[];
  /** Case-sensitive gitignore-style globs. */
  globs: readonly string[];
  maxFileSize: number;
  logger: Logger;
  signal?: AbortSignal | undefined;
  /** Milliseconds rg may run before it is killed and the run fails with `search_failed`. */
  timeout?: number | undefined;
}

/**
 * Matched lines read per file, for all patterns together. It must cover a whole hand-written file:
 * the file a task is about is often the biggest one (a 5,000-line `types.ts`), where common terms
 * fill the first few hundred matches and a rare term further down would never be counted.
 */
export const MAX_LINES_PER_FILE = 10_000;

/** Past this many patterns a dispatch is split into several runs, to keep each command line short. */
export const MAX_PATTERNS_PER_RUN = 200;

/** Fixed-string patterns as rg accepts them: no line breaks (a match is one line), no empties, no repeats. */
export function preparePatterns(patterns: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const pattern of patterns.flatMap((p) => p.split(/\r?\n/))) {
    // An argument cannot carry a NUL byte (spawn refuses it), and no text line holds one anyway.
    if (pattern.includes('\0')) continue;
    if (pattern.trim() !== '' && !seen.has(pattern.toLowerCase())) seen.set(pattern.toLowerCase(), pattern);
  }
  return [...seen.values()];
}

/** Splits patterns into the fewest runs of at most `MAX_PATTERNS_PER_RUN` each. */
export function chunkPatterns(patterns: readonly string[]): string[][] {
  const chunks: string[][] = [];
  for (let i = 0; i < patterns.length; i += MAX_PATTERNS_PER_RUN) chunks.push(patterns.slice(i, i + MAX_PATTERNS_PER_RUN));
  return chunks;
}

function buildArgs(run: RipgrepRun): string[] {
  return [
    '--json',
    '--no-config',
    // .gitignore honored outside a git repository too; nothing from above the root or from the user's global config
    '--no-require-git',
    '--no-ignore-parent',
    '--no-ignore-global',
    '--no-ignore-dot',
    // .git/info/exclude is applied by the listing (which checks it lies inside the root); rg
    // would follow a `.git` link out of the root to read it
    '--no-ignore-exclude',
    '--hidden',
    '--glob', '!.git',
    '-i',
    '-F',
    '--max-filesize', String(run.maxFileSize),
    '--max-columns', '400',
    '--max-count', String(MAX_LINES_PER_FILE),
    ...run.iglobs.flatMap((g) => ['--iglob', g]),
    ...run.globs.flatMap((g) => ['--glob', g]),
    ...run.patterns.flatMap((p) => ['-e', p]),
    '--',
    ...run.paths.map((p) => (p === '' ? '.' : p)),
  ];
}

/**
 * Runs one rg search and calls `onMatch` for every matched line of a text file. Exit 1 (no
 * match) is an empty result; exit 2 after a completed search (some files unreadable) keeps the
 * results and warns; any other failure throws `SearchError`. Aborting kills rg.
 */
export async function runRipgrep(run: RipgrepRun, onMatch: (match: RipgrepMatch) => void): Promise<void> {
  throwIfAborted(run.signal);
  if (run.paths.length === 0 || run.patterns.length === 0) return;
  const child = spawn(run.rgPath, buildArgs(run), { cwd: run.root, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  // observed below; this keeps an early throw from leaving the rejection unhandled
  exited.catch(() => undefined);
  const kill = (): void => void child.kill();
  run.signal?.addEventListener('abort', kill, { once: true });
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  // A hung rg (a stalled network mount, a broken binary) must not hang the run.
  let timedOut = false;
  const timer = run.timeout === undefined ? undefined : setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
    // a child of its own (a wrapper script's) may still hold the pipes open: stop reading them
    lines.close();
    child.stdout.destroy();
    child.stderr.destroy();
  }, run.timeout);
  timer?.unref(); // never what keeps the process alive
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < 8192) stderr += chunk;
  });
  const events = new EventReader(onMatch);
  let drained = false;
  try {
    for await (const line of lines) events.read(line);
    drained = true;
  } finally {
    run.signal?.removeEventListener('abort', kill);
    // stopped early by an exception: rg must not outlive the search
    if (!drained) {
      kill();
      clearTimeout(timer);
    }
  }
  const code = await exited.catch((error: unknown) => {
    throw new SearchError('rg_not_found', `could not start ripgrep at ${run.rgPath}: ${(error as Error).message} (set CTXLOOP_RG to a working rg)`, { cause: error });
  }).finally(() => clearTimeout(timer));
  if (run.signal?.aborted) throw abortError();
  if (timedOut) throw new SearchError('search_failed', `ripgrep timed out after ${run.timeout} ms in ${run.root}`);
  if (code === 0 || code === 1) return;
  const killedBy = code === null ? child.signalCode : null;
  const firstLine = stderr.split('\n').find((l) => l.trim() !== '')?.replace(/^rg: /, '') ?? (killedBy ? `killed by ${killedBy}` : `exit code ${String(code)}`);
  // rg also exits 2 when it finished but could not read some files: the matches it found stand
  if (code === 2 && events.finished) {
    run.logger.warn(`ripgrep skipped some files in ${run.root}: ${firstLine}`);
    return;
  }
  throw new SearchError('search_failed', `ripgrep failed in ${run.root}: ${firstLine}`);
}

interface RgData {
  text?: string;
  bytes?: string;
}

interface RgEvent {
  type: 'begin' | 'match' | 'end' | 'context' | 'summary';
  data: { path?: RgData; lines?: RgData; line_number?: number; binary_offset?: number | null };
}

/** Holds a file's matches until its `end` event says whether the file turned out binary. */
class EventReader {
  finished = false;
  private pending: RipgrepMatch[] = [];

  constructor(private readonly onMatch: (match: RipgrepMatch) => void) {}

  read(line: string): void {
    if (!line) return;
    let event: RgEvent;
    try {
      event = JSON.parse(line) as RgEvent;
    } catch (error) {
      // not rg's --json (CTXLOOP_RG pointing at another program): a search failure, not a crash
      throw new SearchError('search_failed', `ripgrep printed something other than its JSON output: ${JSON.stringify(line.slice(0, 80))}`, { cause: error });
    }
    if (typeof event !== 'object' || event === null || typeof event.data !== 'object' || event.data === null) return;
    if (event.type === 'begin') this.pending = [];
    else if (event.type === 'match' && event.data.path && event.data.lines && event.data.line_number !== undefined) {
      const text = decode(event.data.lines).replace(/\n$/, '').replace(/\r$/, '');
      this.pending.push({ path: toPosix(decode(event.data.path)), line: event.data.line_number, text });
    } else if (event.type === 'end') {
      // a NUL byte seen in the file (binary_offset set): what matched is not text
      if (event.data.binary_offset == null) for (const match of this.pending) this.onMatch(match);
      this.pending = [];
    } else if (event.type === 'summary') this.finished = true;
  }
}

/** rg sends valid UTF-8 as `text` and anything else as base64 `bytes`. */
function decode(data: RgData): string {
  if (data.text !== undefined) return data.text;
  return Buffer.from(data.bytes ?? '', 'base64').toString('utf8');
}
