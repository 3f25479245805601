import { TextDecoder } from 'node:util';
import { isAbortError, UsageError } from '../core/errors.js';
import { readChunks } from '../core/regular-file.js';
import type { TaskSource } from './args.js';
import type { InputStream, Io } from './io.js';

const NO_TASK_HINT = 'pass --task "…", --task-file FILE, or pipe the task on stdin';

/**
 * The task text, trimmed. With no `--task`/`--task-file`, piped stdin is read to its end; a
 * terminal is never prompted. An empty task is a usage error.
 */
export async function readTask(source: TaskSource | undefined, io: Pick<Io, 'stdin' | 'signal'>): Promise<string> {
  const raw = await readRaw(source, io.stdin, io.signal);
  const task = raw.trim();
  if (!task) {
    const where = source?.kind === 'file' ? ` in ${source.path}` : source === undefined || source.kind === 'stdin' ? ' on stdin' : '';
    throw new UsageError('no_task', source === undefined && raw === '' ? 'no task given' : `the task is empty${where}`, { hint: NO_TASK_HINT });
  }
  return task;
}

async function readRaw(source: TaskSource | undefined, stdin: InputStream | undefined, signal: AbortSignal | undefined): Promise<string> {
  if (source?.kind === 'text') return source.text;
  if (source?.kind === 'file') return readFlagFile('--task-file', source.path, signal);
  if (source?.kind === 'stdin') {
    if (!stdin) throw new UsageError('no_task', '--task-file - reads stdin, but there is no stdin', { hint: NO_TASK_HINT });
    return readAll(stdin);
  }
  // Nothing given: read stdin only when it is piped, never wait on a terminal.
  if (!stdin || stdin.isTTY === true) return '';
  return readAll(stdin);
}

/**
 * The most of a task (or an error text) read: the planner works on its first 60,000 characters,
 * and more only costs memory (a stream of NULs, escaped into a cache key, once broke the run).
 */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** The text of the file a flag names; one it cannot read, or larger than `MAX_INPUT_BYTES`, is a usage error naming the flag and why. */
export async function readFlagFile(flag: string, path: string, signal?: AbortSignal): Promise<string> {
  try {
    return await readAll(readChunks(path, signal), `${flag} ${path}`);
  } catch (error) {
    if (error instanceof UsageError || isAbortError(error)) throw error;
    const code = (error as { code?: unknown }).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
    throw new UsageError('bad_option', `${flag}: cannot read ${path} (${why})`, { cause: error });
  }
}

/** A stream's text, to its end; past `MAX_INPUT_BYTES` a usage error saying what (`what`) was too large. */
export async function readAll(stream: InputStream, what = 'stdin'): Promise<string> {
  let decoder: TextDecoder | undefined;
  let text = '';
  let bytes = 0;
  for await (const chunk of stream) {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (bytes > MAX_INPUT_BYTES) throw new UsageError('bad_option', `${what}: more than ${MAX_INPUT_BYTES / 1024 / 1024} MB of text`, { hint: 'pass the part of the task or error that matters' });
    if (typeof chunk === 'string') text += chunk;
    else text += (decoder ??= decoderFor(chunk)).decode(chunk, { stream: true });
  }
  return text + (decoder?.decode() ?? '');
}

/** UTF-8, or UTF-16 when the text opens with its byte-order mark (a file saved by Windows Notepad, PowerShell's `>`). */
function decoderFor(first: Uint8Array): TextDecoder {
  if (first[0] === 0xff && first[1] === 0xfe) return new TextDecoder('utf-16le');
  if (first[0] === 0xfe && first[1] === 0xff) return new TextDecoder('utf-16be');
  return new TextDecoder();
}
