import pLimit from 'p-limit';
import { resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { errorLine, isAbortError, isCtxloopError, shownArgument, toError, UsageError, type ErrorCode } from '../core/errors.js';
import { isInsideRoot, realpathOfDeepest } from '../core/inside.js';
import { silentLogger, type Logger } from '../core/log.js';
import { MAX_SCOPE_ENTRIES, type RetrieveOptions, type SearchOptions } from '../core/options.js';
import type { RetrieveResult } from '../core/types.js';
import { contractOf, renderJson } from '../cli/render/json.js';
import { renderMarkdown } from '../cli/render/md.js';
import { quotedPath } from '../core/pack-text.js';
import { suggestName } from '../core/suggest.js';
import type { Retriever } from '../orchestrator/retriever.js';
import { MAX_ROOTS } from '../orchestrator/roots.js';
import { renderLocateText } from '../cli/render/locate.js';
import { locateBug, type LocatedContext } from './locate.js';
import { createProgressNotifier, type ProgressNotification } from './progress.js';

export interface McpServerOptions {
  /** One retriever for the server's life: its caches stay warm from call to call. */
  retriever: Retriever;
  /** A relative `root` in a call resolves against this. */
  cwd: string;
  /** The package version, announced to clients. */
  version: string;
  /** Where the server reports (stderr in the binary: stdout is the protocol). */
  logger?: Logger;
  /** The server's own search settings (cache, include, exclude, …): the locator of `locate_bug` searches with them too. */
  settings?: SearchOptions;
  /** When set, a call's `root` or `roots` must lie inside one of these directories (real paths). */
  confineTo?: readonly string[];
}

/** Tool calls answered at once; more wait in turn (each runs ripgrep over the whole repository). */
export const MAX_CONCURRENT_CALLS = 4;

const FORMATS = ['md', 'json', 'paths'] as const;
type Format = (typeof FORMATS)[number];

// What every tool shares: where to look and what to hand back.
const whereShape = {
  root: z.string().min(1).optional().describe('Repository to search (absolute, or relative to the server\'s directory). Default: the server\'s --root, else its working directory.'),
  roots: z
    .array(toolArguments('each of roots', { path: z.string().min(1), label: z.string().min(1).optional() }))
    .min(1)
    .max(MAX_ROOTS)
    .optional()
    .describe('Several repositories for one task, instead of root; result paths then read label:path (label defaults to the directory name).'),
  budget: z.number().min(100, { abort: true }).max(10_000_000, { abort: true }).int().optional().describe('Token budget of the context pack (default 8000).'),
  format: z.enum(FORMATS).optional().describe('md: a context pack to read (default); json: the result contract; paths: one path a line.'),
  content: z.boolean().optional().describe('Include the code of each packed region (default true).'),
};

const retrieveShape = {
  task: z.string().min(1).describe('The task in natural language: an issue, a bug report with a stack trace, a feature request. Identifiers, paths and quoted messages help most.'),
  ...whereShape,
  scope: z.array(z.string().min(1)).max(MAX_SCOPE_ENTRIES).optional().describe('Search only under these root-relative directories or files (label:dir for one of several roots).'),
  deep: z.boolean().optional().describe('Follow callers and callees of the top files (a deeper, slower search).'),
};

const locateShape = {
  error: z.string().min(1).describe('The error as it was printed: message and stack trace, verbatim.'),
  ...whereShape,
};

/**
 * Names a calling model reaches for that are another argument's (`query` for the task, `path`
 * for the root, `max_tokens` for the budget): too far from it for `suggestName`.
 */
const SYNONYMS: Record<string, string> = {
  query: 'task', prompt: 'task', issue: 'task', description: 'task', text: 'task',
  path: 'root', repo: 'root', repository: 'root', dir: 'root', directory: 'root', cwd: 'root', workspace: 'root',
  max_tokens: 'budget', maxtokens: 'budget', tokens: 'budget', token_budget: 'budget', tokenbudget: 'budget', limit: 'budget',
  paths: 'scope', include: 'scope', files: 'scope',
  message: 'error', stack: 'error', stacktrace: 'error', stack_trace: 'error', trace: 'error', traceback: 'error',
};

/** Unknown arguments named in a message at most; longer names are cut. */
const MAX_NAMED = 5;
const MAX_NAME_CHARS = 60;

/**
 * A tool's arguments, strictly: an argument the tool does not take is refused with what it may
 * have meant, not dropped. Dropped, `rootDir` searched the server's own root and `max_tokens`
 * packed 8,000 tokens, and the calling model was never told.
 */
function toolArguments<T extends z.ZodRawShape>(tool: string, shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownArguments(tool, issue.keys, known) : undefined),
  });
}

/** `unknown argument rootDir (did you mean root?); retrieve_context takes task, root, …`. */
export function unknownArguments(tool: string, keys: readonly string[], known: readonly string[]): string {
  const named = keys.slice(0, MAX_NAMED).map((key) => {
    const shown = shownArgument(key.length > MAX_NAME_CHARS ? `${key.slice(0, MAX_NAME_CHARS)}…` : key);
    const meant = key.length <= MAX_NAME_CHARS ? meantArgument(key, known) : undefined;
    return meant === undefined ? shown : `${shown} (did you mean ${meant}?)`;
  });
  const more = keys.length > MAX_NAMED ? ` and ${keys.length - MAX_NAMED} more` : '';
  return `unknown argument${keys.length === 1 ? '' : 's'} ${named.join(', ')}${more}; ${tool} takes ${known.join(', ')}`;
}

/** The argument `key` likely stands for: a synonym, a name it starts or ends with (`rootDir`, `repo_root`), or one a typo away. */
function meantArgument(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase().replace(/-/g, '_');
  const synonym = SYNONYMS[lower];
  if (synonym !== undefined && known.includes(synonym)) return synonym;
  return known.find((name) => name.length >= 4 && (lower.startsWith(name) || lower.endsWith(name))) ?? suggestName(key, known);
}

type WhereArgs = { root?: string | undefined; roots?: Array<{ path: string; label?: string | undefined }> | undefined; budget?: number | undefined; format?: Format | undefined; content?: boolean | undefined };

interface CallContext {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number | undefined } | undefined;
  sendNotification: (notification: ProgressNotification) => Promise<void>;
}

/**
 * The ctxloop MCP server: `retrieve_context` (a task → the context pack) and `locate_bug` (an
 * error → the code behind it). Each call reports progress when the client sends a progress
 * token, stops when the client cancels, and fails as a tool error (`isError`) with one line.
 */
export function createMcpServer({ retriever, cwd, version, logger = silentLogger, settings = {}, confineTo }: McpServerOptions): McpServer {
  const server = new McpServer({ name: 'ctxloop', version });
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  const optionsFor = (args: WhereArgs, extra: CallContext): { options: RetrieveOptions; settled: () => Promise<void> } => {
    const options: RetrieveOptions = { signal: extra.signal, withContent: args.content ?? true };
    if (args.root !== undefined) options.root = resolve(cwd, args.root);
    if (args.roots !== undefined) options.roots = args.roots.map((r) => ({ path: resolve(cwd, r.path), ...(r.label === undefined ? {} : { label: r.label }) }));
    if (args.budget !== undefined) options.budget = args.budget;
    const notifier = createProgressNotifier(extra._meta?.progressToken, extra.sendNotification);
    if (notifier) options.onProgress = notifier.onProgress;
    return { options, settled: notifier ? notifier.settled : () => Promise.resolve() };
  };

  // At most a few calls run at once, the rest wait their turn: 120 calls at once each started
  // their ripgrep, which all ran out of time, and every answer rested on file names alone.
  const turns = pLimit(MAX_CONCURRENT_CALLS);
  // Progress notifications go out before the answer: a client reading the last one sees the pack's.
  const answer = (tool: string, args: WhereArgs, extra: CallContext, run: (options: RetrieveOptions) => Promise<LocatedContext>): Promise<CallToolResult> => turns(() => answerNow(tool, args, extra, run));
  const answerNow = async (tool: string, args: WhereArgs, extra: CallContext, run: (options: RetrieveOptions) => Promise<LocatedContext>): Promise<CallToolResult> => {
    const { options, settled } = optionsFor(args, extra);
    try {
      if (confineTo) await assertConfined(options, confineTo);
      const result = await run(options).finally(settled);
      logger.info(`${tool}: ${result.files.length} files, ${result.tokens} tokens`);
      return { content: [{ type: 'text', text: renderFor(result, args.format ?? 'md') }] };
    } catch (error) {
      const text = describeFailure(error);
      logger.warn(`${tool}: ${text}`);
      return { content: [{ type: 'text', text }], isError: true };
    }
  };

  server.registerTool(
    'retrieve_context',
    {
      title: 'Retrieve context for a task',
      description:
        'Finds the files and code regions a coding task needs before work starts: each with a relevance score (0-1), a reason and line ranges, packed within a token budget, plus the gaps that remain. Call it first with the task as given; read the packed regions; close the gaps with a search.',
      inputSchema: toolArguments('retrieve_context', retrieveShape),
      annotations: readOnly,
    },
    (args, extra) =>
      answer('retrieve_context', args, extra, (options) => {
        if (args.scope !== undefined) options.scope = args.scope;
        if (args.deep !== undefined) options.deep = args.deep;
        return retriever.retrieve(args.task, options);
      }),
  );

  server.registerTool(
    'locate_bug',
    {
      title: 'Locate the code behind an error',
      description:
        'Given an error message or stack trace, finds the files and regions where the bug most likely is (the frames it names, the code that raises the message, what they call), as a context pack.',
      inputSchema: toolArguments('locate_bug', locateShape),
      annotations: readOnly,
    },
    (args, extra) => answer('locate_bug', args, extra, (options) => locateBug(retriever, args.error, options, settings)),
  );

  return server;
}

function renderFor(located: LocatedContext, format: Format): string {
  const { suspects, ...result } = located;
  if (format === 'json') return suspects ? `${JSON.stringify({ ...contractOf(result), suspects }, null, 2)}\n` : renderJson(result);
  if (format === 'md') return suspects ? `# Suspects\n\n${renderLocateText(suspects)}\n${renderMarkdown(result)}` : renderMarkdown(result);
  const paths = [...new Set([...(suspects?.candidates.map((c) => c.path) ?? []), ...result.files.map((f) => f.path)])].map((p) => `${quotedPath(p)}\n`).join('');
  return paths || '(no file reached the threshold; ask for format md or json to see the candidates)\n';
}

/**
 * What to do, in a tool's terms, where the error's own hint names the command line (`pass
 * --task "…"`, `--root`): the calling model passes arguments, not flags.
 */
const TOOL_HINTS: Partial<Record<ErrorCode, string>> = {
  no_task: 'pass it as a non-empty string',
  root_not_found: "pass root (or roots) naming an existing directory, absolute or relative to the server's directory",
};

/** One line for the calling model: what failed and what to do, never a stack trace. */
export function describeFailure(error: unknown): string {
  if (isCtxloopError(error)) {
    const hint = error.hint?.includes('--') ? (TOOL_HINTS[error.code] ?? error.hint) : error.hint;
    return `ctxloop (${error.code}): ${errorLine(error.message, true)}${hint ? `; ${hint}` : ''}`;
  }
  if (isAbortError(error)) return 'ctxloop (aborted): the call was cancelled';
  return `ctxloop (internal): ${errorLine(toError(error).message)} (this is a bug in ctxloop)`;
}

/**
 * `--confine`: every root a call names (links followed as far as the path exists) lies inside
 * one of the server's roots, or the call is refused before anything is read. The call then runs
 * on the real paths checked, not the names given: a link switched between the check and the run
 * cannot take it elsewhere.
 */
async function assertConfined(options: RetrieveOptions, allowed: readonly string[]): Promise<void> {
  const confined = async (path: string): Promise<string> => {
    const real = await realpathOfDeepest(path);
    if (!allowed.some((root) => isInsideRoot(root, real))) {
      throw new UsageError('root_not_allowed', `root ${path} is outside the directories this server serves (--confine): ${allowed.join(', ')}`);
    }
    return real;
  };
  if (options.root !== undefined) options.root = await confined(options.root);
  if (options.roots !== undefined) options.roots = await Promise.all(options.roots.map(async (r) => ({ ...r, path: await confined(r.path) })));
}
