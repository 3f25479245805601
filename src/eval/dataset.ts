import { z } from 'zod';
import { UsageError } from '../core/errors.js';
import { toPosix } from '../core/files.js';
import { readChunks } from '../core/regular-file.js';
import { hasUnshowable } from '../core/pack-text.js';
import type { EvalTask } from './types.js';

/**
 * A name the report and the progress line print: one short line without control characters (an id
 * holding `\x1b]0;…` retitled the terminal, a 5 MB one filled it).
 */
const label = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((text) => !hasUnshowable(text), 'must not hold control characters');

const taskSchema = z.object({
  id: label(200),
  // `.` or `..` as a part would lead the mirror lookup out of --repos
  repo: z
    .string()
    .max(200)
    .regex(/^[\w.-]+\/[\w.-]+$/, 'must be owner/name')
    .refine((repo) => repo.split('/').every((part) => part !== '.' && part !== '..'), 'must be owner/name, not . or ..'),
  base_commit: z.string().regex(/^[0-9a-f]{7,40}$/i, 'must be a commit hash'),
  task: z.string().min(1),
  // repository-relative paths: an absolute one, or one climbing out with `..`, can never be found
  // a name no file has (a NUL, spaces around it, a directory's trailing slash) would only ever miss, silently
  gold_files: z
    .array(
      z
        .string()
        .min(1)
        .refine(isRelativeInside, 'must be a path inside the repository')
        .refine((path) => !path.includes('\0') && path === path.trim() && !/[\\/]$/.test(path), 'must be a file path as git names it (no NUL, no spaces around it, no trailing slash)'),
    )
    .min(1),
  language: label(40).optional(),
});

function isRelativeInside(path: string): boolean {
  const parts = path.replace(/\\/g, '/').split('/');
  return !path.startsWith('/') && !/^[A-Za-z]:/.test(path) && parts.every((part) => part !== '..');
}

/** A gold path as git names it: `src//a.ts` and `src/./a.ts` are `src/a.ts` (`..` is refused above). */
function goldPath(path: string): string {
  return toPosix(path, '\\')
    .split('/')
    .filter((part) => part !== '' && part !== '.')
    .join('/');
}

/** A dataset past this is not one (SWE-bench's 2,294 tasks with their problem statements are 10 MB): `/dev/zero` was read to 619 MB before failing. */
const MAX_DATASET_BYTES = 64 * 1024 * 1024;

/** Reads a JSONL dataset; a missing or oversized file or a bad line is a `UsageError` naming `file:line`. */
export async function readDataset(file: string): Promise<EvalTask[]> {
  let text: string;
  try {
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of readChunks(file)) {
      bytes += chunk.length;
      if (bytes > MAX_DATASET_BYTES) throw new UsageError('bad_option', `dataset ${file} holds more than ${MAX_DATASET_BYTES / 1024 / 1024} MB`, { hint: 'split it into smaller files' });
      chunks.push(chunk);
    }
    text = Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new UsageError('bad_option', `cannot read dataset ${file}: ${reason}`, { cause: error });
  }
  return parseDataset(text, file);
}

/** Parses JSONL text (blank lines skipped); `source` names the file in errors. */
export function parseDataset(text: string, source: string): EvalTask[] {
  const tasks: EvalTask[] = [];
  const lines = new Map<string, number>();
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    const where = `${source}:${index + 1}`;
    const task = parseLine(line, where);
    const previous = lines.get(task.id);
    if (previous !== undefined) throw new UsageError('bad_config', `${where}: duplicate id ${task.id} (first on line ${previous})`);
    lines.set(task.id, index + 1);
    tasks.push(task);
  });
  if (tasks.length === 0) throw new UsageError('bad_config', `${source}: no tasks in the dataset`);
  return tasks;
}

function parseLine(line: string, where: string): EvalTask {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new UsageError('bad_config', `${where}: not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = taskSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : 'line';
    throw new UsageError('bad_config', `${where}: ${field}: ${issue?.message ?? 'invalid'}`);
  }
  const { language, ...rest } = parsed.data;
  const task: EvalTask = { ...rest, gold_files: [...new Set(rest.gold_files.map(goldPath))] };
  if (language !== undefined) task.language = language;
  return task;
}
