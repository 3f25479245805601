import { relative, resolve, sep } from 'node:path';
import { types } from 'node:util';
import { z } from 'zod';
import { isUsageError, UsageError } from './errors.js';
import { globHazard } from './glob-hazard.js';
import { leavesRoot } from './inside.js';
import { parseDecimal } from './numbers.js';
import { suggestName } from './suggest.js';
import { isOffValue, readEnv } from './env.js';
import type { Logger } from './log.js';
import type { ProgressEvent } from './types.js';

export type ProviderName = 'auto' | 'offline' | 'anthropic' | 'openai';

/** One of several repositories searched for one task (`RetrieveOptions.roots`). */
export interface RootSpec {
  /** The directory (absolute, or relative to the current directory). */
  path: string;
  /**
   * Prefixes this root's paths in the result: `api` gives `api:src/server.ts`. Letters, digits,
   * `_`, `.` and `-`, starting with a letter or digit; unique among the roots.
   * @default the directory's name
   */
  label?: string;
}

/** Options of `retrieve()`. Everything is optional; `resolveOptions` fills the rest. */
export interface RetrieveOptions {
  /**
   * Repository root to search.
   * @default process.cwd()
   */
  root?: string;
  /**
   * Several repositories for one task (instead of `root`). Each is searched by its own loop; the
   * files of all roots are ranked together by score and packed within one `budget`, and every
   * path in the result reads `label:path`. A `scope` entry `label:dir` applies to that root
   * only, a plain one to every root. Settings that concern the whole result (`threshold`,
   * `budget`, `withContent`) come from the first root's configuration.
   * @example
   * retrieve('the login call returns 500', { roots: [{ label: 'api', path: '../api' }, { label: 'web', path: '.' }] })
   */
  roots?: RootSpec[];
  /**
   * Dispatch–evaluate–refine cycles at most (1–3).
   * @default 3
   */
  maxCycles?: number;
  /**
   * Score (0–1) a file needs to be packed.
   * @default 0.7
   */
  threshold?: number;
  /**
   * Token budget of the pack, counted with a real tokenizer (o200k).
   * @default 8000
   */
  budget?: number;
  /**
   * Root-relative directories or files to search in; empty = the whole root.
   * @default []
   */
  scope?: string[];
  /**
   * Globs a file must match to be searched; empty = every file.
   * @default []
   */
  include?: string[];
  /**
   * Globs never searched (on top of .gitignore and the built-in skips).
   * @default []
   */
  exclude?: string[];
  /**
   * Which evaluator: `auto` picks Anthropic, then OpenAI, when their keys are set, else offline.
   * @default 'auto'
   */
  provider?: ProviderName;
  /** Model name for the LLM provider (each provider has a small, fast default). */
  model?: string;
  /**
   * Milliseconds one model request may take (each SDK retry gets the same again).
   * @default 30000
   */
  timeout?: number;
  /**
   * Retries of a failed model request (429 honouring `retry-after`, 5xx, network), done by the SDK.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Milliseconds all model calls of one run may take together; past it the run goes on offline.
   * @default 120000
   */
  deadline?: number;
  /**
   * Candidates a model judges per cycle, the offline ranking's best (later cycles send only
   * those not judged before); the rest keep their offline score, capped below the threshold.
   * @default 30
   */
  modelCandidates?: number;
  /**
   * Candidates per model call; the calls of a cycle run `modelConcurrency` at a time. Each call
   * pays the prompt's fixed part and the task again: one batch of 30 costs about 1,000 tokens
   * less than three of 10, at the price of one slower call.
   * @default 10
   */
  batchSize?: number;
  /**
   * Cache directory, or `false` for no cache.
   * @default the user cache dir (`~/.cache/ctxloop` on Linux)
   */
  cache?: string | false;
  /** Folder of role definitions (`*.md` with YAML front matter) replacing the bundled `agents/`. */
  agentsDir?: string;
  /** Folder of prompt templates replacing the bundled `prompts/`. */
  promptsDir?: string;
  /**
   * Include region contents in the result (`content` on each region).
   * @default false
   */
  withContent?: boolean;
  /**
   * Candidates kept from a dispatch (it over-fetches about 3× what is packed).
   * @default 150
   */
  maxCandidates?: number;
  /**
   * Concurrent searches and file reads.
   * @default 4
   */
  concurrency?: number;
  /**
   * Files larger than this (bytes) are skipped.
   * @default 1000000
   */
  maxFileSize?: number;
  /**
   * Deep mode: after the loop, follow callers, callees and imports from the best files and let
   * the evaluator score what they lead to.
   * @default false
   */
  deep?: boolean;
  /**
   * Hops deep mode follows from the best files (1–5).
   * @default 2
   */
  deepDepth?: number;
  /**
   * Refuse to send any code to a model: a run with a model configured fails with
   * `egress_refused` (exit 2) before anything is sent, instead of sending or falling back
   * silently. Offline runs are unaffected. Also `CTXLOOP_NO_EGRESS=1`.
   * @default false
   */
  noEgress?: boolean;
  /**
   * Milliseconds one ripgrep process may run; past it rg is killed and the cycle goes on with
   * what the file listing found (a warning says so).
   * @default 60000
   */
  searchTimeout?: number;
  /** Receives progress as the loop runs. */
  onProgress?: (event: ProgressEvent) => void;
  /** Cancels every search and model call. */
  signal?: AbortSignal;
  /** Where the library reports (it never prints on its own). */
  logger?: Logger;
  /**
   * Environment for provider keys and base URLs (`ANTHROPIC_*`, `OPENAI_*`) and `CTXLOOP_*` settings.
   * @default process.env
   */
  env?: Record<string, string | undefined>;
}

/** Options after defaults, environment and config file: nothing optional but `model` and dirs. */
export interface ResolvedOptions {
  root: string;
  maxCycles: number;
  threshold: number;
  budget: number;
  scope: string[];
  include: string[];
  exclude: string[];
  provider: ProviderName;
  model: string | undefined;
  timeout: number;
  maxRetries: number;
  deadline: number;
  modelCandidates: number;
  batchSize: number;
  cacheDir: string | null;
  agentsDir: string | undefined;
  promptsDir: string | undefined;
  withContent: boolean;
  maxCandidates: number;
  concurrency: number;
  maxFileSize: number;
  deep: boolean;
  deepDepth: number;
  noEgress: boolean;
  searchTimeout: number;
}

export const DEFAULTS = {
  maxCycles: 3,
  threshold: 0.7,
  budget: 8000,
  provider: 'auto' as ProviderName,
  maxCandidates: 150,
  concurrency: 4,
  maxFileSize: 1_000_000,
  timeout: 30_000,
  maxRetries: 2,
  deadline: 120_000,
  modelCandidates: 30,
  batchSize: 10,
  searchTimeout: 60_000,
  /** Model calls in flight at once. */
  modelConcurrency: 4,
  /** Enough files scoring ≥ threshold to stop looping. */
  enoughFiles: 3,
  /** Scores below this become excludes for the next cycle. */
  excludeBelow: 0.2,
  /** Hops deep mode follows from the best files. */
  deepDepth: 2,
  /** Hops `trace` walks from a symbol's definitions. */
  traceDepth: 3,
  /** Callers or callees followed per definition and hop (trace and deep mode). */
  traceFanOut: 8,
  /** Definitions in one trace at most. */
  traceMaxNodes: 200,
  /** Commits `locate` reads for recency and churn. */
  historyDepth: 200,
  /** Suspects `locate` returns. */
  locateLimit: 5,
} as const;

/** A name or path: no NUL, which no file name holds and every system call refuses (a stack trace from spawn). */
const name = z.string().min(1).refine((text) => !text.includes('\0'), 'must not hold a NUL character');
/**
 * A model's name goes into every request and onto stderr: a line break in it forged log lines
 * (`provider: openai (gpt` then a line of its own), and no provider names a model so.
 */
const modelName = z
  .string()
  .min(1)
  .max(256)
  .refine((text) => !/[\x00-\x1f\x7f-\x9f\u2028\u2029]/.test(text), 'must not hold a line break or control character');
/**
 * Globs of a filter: as many as a person writes (each is tested against every path), none
 * negated (`!x` is "all but x" to rg and picomatch alike: an exclude that keeps only x).
 */
const globs = (use: string) =>
  z
    .array(
      name
        .refine((glob) => !glob.trimStart().startsWith('!'), `a glob may not start with "!" (it would mean every path but that one): ${use}`)
        .superRefine((glob, ctx) => {
          const hazard = globHazard(glob);
          if (hazard) ctx.addIssue({ code: 'custom', message: hazard });
        }),
    )
    .max(MAX_FILTER_GLOBS);

/** The most globs an include or exclude list holds: each path is tested against each glob. */
export const MAX_FILTER_GLOBS = 200;

/** The largest `maxFileSize`: what one file may cost in memory stays within a few hundred MB. */
export const MAX_FILE_SIZE_BOUND = 16 * 1024 * 1024;

/**
 * The most scope entries, and their characters together: each is an argument on rg's command
 * line, and 60,000 of them failed every rg with `spawn E2BIG`, reported as a bug in ctxloop.
 */
export const MAX_SCOPE_ENTRIES = 1000;
export const MAX_SCOPE_CHARS = 128 * 1024;

/** The fields a config file, flags or the environment may set. */
export const settingsSchema = z
  .object({
    maxCycles: z.number().min(1).max(3).int(),
    threshold: z.number().min(0).max(1),
    budget: z.number().min(100).max(10_000_000).int(),
    scope: z
      .array(name)
      .max(MAX_SCOPE_ENTRIES)
      .refine((entries) => entries.reduce((sum, entry) => sum + entry.length, 0) <= MAX_SCOPE_CHARS, `scope entries may hold ${MAX_SCOPE_CHARS / 1024} KB of paths together (name their common directories instead)`),
    include: globs('exclude what you would leave out'),
    exclude: globs('include what you would keep'),
    provider: z.enum(['auto', 'offline', 'anthropic', 'openai']),
    model: modelName,
    timeout: z.number().min(100).max(600_000).int(),
    maxRetries: z.number().min(0).max(10).int(),
    deadline: z.number().min(1000).max(3_600_000).int(),
    modelCandidates: z.number().min(1).max(200).int(),
    batchSize: z.number().min(1).max(50).int(),
    cache: z.union([name, z.literal(false)]),
    agentsDir: name,
    promptsDir: name,
    withContent: z.boolean(),
    maxCandidates: z.number().min(10).max(5000).int(),
    concurrency: z.number().min(1).max(64).int(),
    // A file is read whole into one string, and read again for its facts and its regions: a 32 MB
    // file took 880 MB of memory, one of 252 MB (the bound was 256 MB) 3.95 GB.
    maxFileSize: z.number().min(1024).max(MAX_FILE_SIZE_BOUND).int(),
    deep: z.boolean(),
    deepDepth: z.number().min(1).max(5).int(),
    noEgress: z.boolean(),
    searchTimeout: z.number().min(100).max(3_600_000).int(),
  })
  .partial()
  .strict();

export type Settings = z.infer<typeof settingsSchema>;

/** Validates settings from one source, naming the source and the field in the error. */
export function parseSettings(value: unknown, source: string): Settings {
  const parsed = settingsSchema.safeParse(value);
  if (parsed.success) return parsed.data as Settings;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || '(top level)';
  const got = issue && issue.path.length > 0 ? describeValue(pick(value, issue.path)) : undefined;
  const what = issue?.code === 'unrecognized_keys' ? `unknown field ${(issue as { keys?: string[] }).keys?.join(', ')}` : `${field}: ${issue?.message ?? 'invalid'}`;
  throw new UsageError(issue?.code === 'unrecognized_keys' ? 'bad_config' : 'bad_option', `${source}: ${what}${got === undefined ? '' : ` (got ${got})`}`);
}

function pick(value: unknown, path: PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === 'number') text = String(value); // NaN and Infinity, which JSON calls null
  else {
    try {
      text = JSON.stringify(value) ?? typeof value;
    } catch {
      // nested past the stack (an array 5,000 deep): String() would recurse as far
      text = Array.isArray(value) ? 'an array' : typeof value;
    }
  }
  return text.length > MAX_SHOWN_VALUE ? `${text.slice(0, MAX_SHOWN_VALUE - 1)}…` : text;
}

/** Characters of a bad setting's value an error message echoes. */
const MAX_SHOWN_VALUE = 80;

/** A number from the environment variable `name`, or a usage error naming it and what it held. */
function envNumber(name: string, text: string): number {
  const value = parseDecimal(text);
  if (Number.isNaN(value)) throw new UsageError('bad_option', `${name} must be a number (got ${JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text)})`);
  return value;
}

/** Settings from `CTXLOOP_*` environment variables. */
export function settingsFromEnv(env: Record<string, string | undefined>): Settings {
  const raw: Record<string, unknown> = {};
  const provider = readEnv(env, 'CTXLOOP_PROVIDER');
  if (provider) raw.provider = provider;
  const model = readEnv(env, 'CTXLOOP_MODEL');
  if (model) raw.model = model;
  const cache = readEnv(env, 'CTXLOOP_CACHE');
  // off as CTXLOOP_NO_EGRESS reads on and off, in any case: `FALSE` or `no` made a cache directory of that name
  if (cache) raw.cache = isOffValue(cache) ? false : cache;
  const budget = readEnv(env, 'CTXLOOP_BUDGET');
  if (budget) raw.budget = envNumber('CTXLOOP_BUDGET', budget);
  const threshold = readEnv(env, 'CTXLOOP_THRESHOLD');
  if (threshold) raw.threshold = envNumber('CTXLOOP_THRESHOLD', threshold);
  const noEgress = readEnv(env, 'CTXLOOP_NO_EGRESS');
  if (noEgress) raw.noEgress = !isOffValue(noEgress);
  return parseSettings(raw, 'environment');
}

export interface ResolveInput {
  /** From the caller (flags or library options): highest precedence. */
  flags: Settings & { root?: string };
  /** From the environment. */
  env: Settings;
  /** From `ctxloop.config.json` / `.ctxloop.json`. */
  file: Settings;
  /** Absolute root, already checked to be a directory. */
  root: string;
  /** Default cache dir for this machine (null = none could be found). */
  defaultCacheDir: string | null;
}

/** flags > environment > config file > defaults. Nothing downstream fills a default again. */
export function resolveOptions({ flags, env, file, root, defaultCacheDir }: ResolveInput): ResolvedOptions {
  const merged: Settings = { ...file, ...env, ...stripUndefined(flags) };
  const cache = merged.cache;
  // A relative cache (the environment, a library caller) is where the cache writes it, against the
  // working directory: resolved once, so the exclusion below names the same place (it was taken
  // against the root, and the cache's own files were packed from a subdirectory).
  const chosen = cache === false ? null : (cache ?? defaultCacheDir);
  const cacheDir = chosen === null ? null : resolve(chosen);
  return {
    root,
    maxCycles: merged.maxCycles ?? DEFAULTS.maxCycles,
    threshold: merged.threshold ?? DEFAULTS.threshold,
    budget: merged.budget ?? DEFAULTS.budget,
    scope: merged.scope ?? [],
    include: merged.include ?? [],
    exclude: [...(merged.exclude ?? []), ...excludeCache(root, cacheDir)],
    provider: merged.provider ?? DEFAULTS.provider,
    model: merged.model,
    timeout: merged.timeout ?? DEFAULTS.timeout,
    maxRetries: merged.maxRetries ?? DEFAULTS.maxRetries,
    deadline: merged.deadline ?? DEFAULTS.deadline,
    modelCandidates: merged.modelCandidates ?? DEFAULTS.modelCandidates,
    batchSize: merged.batchSize ?? DEFAULTS.batchSize,
    cacheDir,
    agentsDir: merged.agentsDir,
    promptsDir: merged.promptsDir,
    withContent: merged.withContent ?? false,
    maxCandidates: merged.maxCandidates ?? DEFAULTS.maxCandidates,
    concurrency: merged.concurrency ?? DEFAULTS.concurrency,
    maxFileSize: merged.maxFileSize ?? DEFAULTS.maxFileSize,
    deep: merged.deep ?? false,
    deepDepth: merged.deepDepth ?? DEFAULTS.deepDepth,
    // A safety switch only tightens: any source that asks for it wins over one that does not.
    noEgress: file.noEgress === true || env.noEgress === true || flags.noEgress === true,
    searchTimeout: merged.searchTimeout ?? DEFAULTS.searchTimeout,
  };
}

/**
 * A cache kept inside the repository searched (`--cache .ctxloop-cache`) is not searched: its
 * files would come back as candidates of the next run. Its path, as a glob read literally; a
 * cache in the root itself, its files' names.
 */
function excludeCache(root: string, cacheDir: string | null): string[] {
  if (cacheDir === null) return [];
  const rel = relative(root, cacheDir); // absolute (resolveOptions)
  // the root itself (`--cache .`): the names the cache writes there (cache/paths.ts CACHE_NAME)
  if (rel === '') return [`/${'[0-9a-f]'.repeat(16)}*.json*`];
  if (leavesRoot(rel)) return [];
  // anchored at the root: `cache` alone would be a name at any depth (`src/cache/` too)
  return [`/${rel.split(sep).join('/').replace(/[\\*?[\]{}()!]/g, '\\$&')}`];
}

function stripUndefined<T extends object>(value: T): Settings {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined && key !== 'root') out[key] = v;
  return out as Settings;
}

/** Where `trace()` and `locate()` look: the search settings of `retrieve()`. */
export type SearchOptions = Pick<RetrieveOptions, 'root' | 'scope' | 'include' | 'exclude' | 'cache' | 'concurrency' | 'maxFileSize' | 'signal' | 'logger' | 'env'>;

/** Options of `trace()`. */
export interface TraceOptions extends SearchOptions {
  /**
   * Which calls to follow from the symbol's definitions: who calls it, what it calls, or both.
   * @default 'both'
   */
  direction?: 'callers' | 'callees' | 'both';
  /**
   * Hops from the symbol's definitions (1–8).
   * @default 3
   */
  depth?: number;
}

/** Options of `locate()`. */
export interface LocateOptions extends SearchOptions {
  /**
   * Commits of git history read for recency and churn; 0 reads none.
   * @default 200
   */
  historyDepth?: number;
  /**
   * Suspects returned (1–50).
   * @default 5
   */
  limit?: number;
}

/**
 * Every option any of `retrieve()`, `createRetriever()`, `trace()` and `locate()` reads: a name
 * outside them all is a mistake. One list for all, so the options of one call can be handed to
 * another (`locate(text, retrieveOptions)`), each reading what it knows.
 */
const OPTION_KEYS: ReadonlySet<string> = new Set([...Object.keys(settingsSchema.shape), 'root', 'roots', 'onProgress', 'signal', 'logger', 'env', 'direction', 'depth', 'historyDepth', 'limit']);

/**
 * What a JavaScript caller passed as options, checked where the types cannot: an object (or
 * nothing), and the fields the settings schema does not read (`root`, `roots`, `signal`,
 * `onProgress`, `logger`, `env`) of the kind they must be. A wrong one is a usage error, not a
 * TypeError from deep inside a run.
 */
export function checkCallerOptions(value: unknown, what = 'options'): void {
  if (value === undefined) return;
  const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
  const fail = (message: string): never => {
    throw new UsageError('bad_option', message);
  };
  try {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${what} must be an object (got ${kind(value)})`);
  } catch (error) {
    if (isUsageError(error)) throw error;
    fail(`${what} is a revoked Proxy`); // Array.isArray throws for one, and only for one
  }
  // Read as no options at all: the run searched the working directory and wrote the default
  // cache, whatever the object the promise would give said (`retrieve(t, loadOptions())`).
  if (typeof (value as { then?: unknown }).then === 'function') fail(`${what} is a Promise: await it, and pass the object it gives`);
  const builtIn = builtInKind(value as object);
  if (builtIn) fail(`${what} must be a plain object (got ${builtIn})`);
  const o = value as Record<string, unknown>;
  if (o.root !== undefined && (typeof o.root !== 'string' || o.root.trim() === '')) fail(`root must be a directory path (got ${kind(o.root)})`);
  if (o.roots !== undefined) {
    const roots = o.roots;
    const bad = !Array.isArray(roots) || roots.some((r: unknown) => typeof r !== 'object' || r === null || typeof (r as { path?: unknown }).path !== 'string' || !['undefined', 'string'].includes(typeof (r as { label?: unknown }).label));
    if (bad) fail('roots must be an array of { path: string, label?: string }');
  }
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) fail(`signal must be an AbortSignal (got ${kind(o.signal)})`);
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') fail(`onProgress must be a function (got ${kind(o.onProgress)})`);
  for (const field of ['logger', 'env'] as const) {
    const v = o[field];
    if (v !== undefined && (typeof v !== 'object' || v === null || Array.isArray(v))) fail(`${field} must be an object (got ${kind(v)})`);
  }
}

/** The kind of a built-in object whose fields are not options (an Error, a Date, a WeakRef…), or undefined. */
function builtInKind(value: object): string | undefined {
  if (types.isNativeError(value)) return 'an Error';
  if (types.isDate(value)) return 'a Date';
  if (types.isRegExp(value)) return 'a RegExp';
  if (types.isMap(value) || types.isWeakMap(value)) return 'a Map';
  if (types.isSet(value) || types.isWeakSet(value)) return 'a Set';
  if (value instanceof WeakRef) return 'a WeakRef';
  if (types.isAnyArrayBuffer(value) || ArrayBuffer.isView(value)) return 'binary data';
  if (types.isBoxedPrimitive(value)) return 'a boxed primitive';
  return undefined;
}

/**
 * The caller's options checked (`checkCallerOptions`) and copied into a plain object of their
 * values: inherited ones (`Object.create(defaults)`) and getters of a class included. Spread
 * copies own enumerable fields only, while a field test (`options.root !== undefined`) sees
 * inherited ones: an inherited `root` replaced the retriever's and was then dropped, so the run
 * searched the working directory and wrote the default cache, not the one given.
 */
export function callerOptions<T extends object>(value: T | undefined, what = 'options'): T {
  checkCallerOptions(value, what);
  const out: Record<string, unknown> = {};
  if (value === undefined) return out as T;
  const seen = new Set<string>();
  for (let o: object | null = value; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (seen.has(key) || key === 'constructor') continue;
      seen.add(key);
      const field = Object.getOwnPropertyDescriptor(o, key);
      // methods and hidden fields are not options; a getter is read, as a field would be
      if (!field || (!field.enumerable && !field.get)) continue;
      const read = (value as Record<string, unknown>)[key];
      if (read === undefined) continue;
      // a mistyped name (`budjet`) was dropped, and the run went on with the default
      if (!OPTION_KEYS.has(key)) {
        const guess = suggestName(key, [...OPTION_KEYS]);
        throw new UsageError('bad_option', `${what}: unknown option ${JSON.stringify(key.length > 80 ? `${key.slice(0, 80)}…` : key)}${guess ? `, did you mean ${guess}?` : ''}`);
      }
      out[key] = read;
    }
  }
  return out as T;
}
