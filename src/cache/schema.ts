import { z } from 'zod';
import type { FileStamp, MemoEntry } from '../core/deps.js';
import type { FileFacts, Score } from '../core/types.js';

/** 2: replies and stamps got layers of their own (a version-1 file is moved aside and rebuilt). */
export const CACHE_FORMAT = 2;

/** The entry layers of the store. */
export const LAYERS = ['facts', 'scores', 'replies', 'stamps', 'results'] as const;
export type Layer = (typeof LAYERS)[number];

const entrySchema = z.object({ v: z.unknown(), t: z.number() });

/**
 * The file's shape, checked on load. Entry values are checked when first read (`factsSchema`,
 * `scoreSchema`): validating 50,000 entries up front would cost more than the cache saves on a
 * small run, and one bad entry then costs a miss, not the whole file.
 */
export const cacheFileSchema = z.object({
  version: z.literal(CACHE_FORMAT),
  root: z.string(),
  facts: z.record(z.string(), entrySchema),
  scores: z.record(z.string(), entrySchema),
  replies: z.record(z.string(), entrySchema),
  stamps: z.record(z.string(), entrySchema),
  // Added after format 2 shipped: a file without it reads as having none (and an older ctxloop drops it).
  results: z.record(z.string(), entrySchema).default({}),
});

export interface Entry<T> {
  v: T;
  t: number;
}

export type CacheFile = { version: typeof CACHE_FORMAT; root: string } & Record<Layer, Record<string, Entry<unknown>>>;

const line = z.number().int().min(0);

export const factsSchema: z.ZodType<FileFacts> = z.object({
  path: z.string(),
  hash: z.string(),
  language: z.string(),
  lines: line,
  defs: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(['function', 'method', 'class', 'interface', 'type', 'enum', 'struct', 'trait', 'variable', 'constant', 'macro', 'module']),
      start: line,
      end: line,
      parent: z.string().optional(),
    }),
  ),
  imports: z.array(z.string()),
  calls: z.array(z.string()),
}) as z.ZodType<FileFacts>;

export const scoreSchema: z.ZodType<Score> = z.object({
  path: z.string(),
  relevance: z.number().min(0).max(1),
  reason: z.string(),
  missing: z.array(z.string()),
  evidence: z.array(line),
});

/** A stamp from before `ctimeMs` or `ino` was kept fails this: a miss, the file is hashed and stamped again. */
export const stampSchema: z.ZodType<FileStamp> = z.object({ mtimeMs: z.number(), size: z.number().int().min(0), ctimeMs: z.number(), ino: z.number(), hash: z.string() });

/** Replies are any JSON; whoever reads one validates it against its own schema. */
export const replySchema = z.unknown();

/** A whole run's result and the repository state it was computed on (`orchestrator/result-memo.ts` checks the result further). */
export const memoSchema: z.ZodType<MemoEntry> = z.object({ state: z.string(), result: z.record(z.string(), z.unknown()) }) as unknown as z.ZodType<MemoEntry>;

export function emptyCacheFile(root: string): CacheFile {
  return { version: CACHE_FORMAT, root, facts: {}, scores: {}, replies: {}, stamps: {}, results: {} };
}
