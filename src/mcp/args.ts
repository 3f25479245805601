import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { parseSettings, type RetrieveOptions, type RootSpec } from '../core/options.js';
import { parseRootFlag, settingsOf } from '../cli/args.js';
import { SEE_HELP, rejectRepeatedFlags, toFlagError } from '../cli/flag-values.js';

/** `ctxloop mcp` after parsing: what every tool call starts from, and how loud stderr is. */
export interface McpArgs {
  help: boolean;
  /** The retriever's settings: the default root(s), provider, cache, budget. */
  config: RetrieveOptions;
  quiet: boolean;
  verbose: boolean;
  /** Calls may name only roots inside the server's own. */
  confine: boolean;
}

export const MCP_FLAGS = {
  root: { type: 'string', multiple: true },
  provider: { type: 'string' },
  model: { type: 'string' },
  budget: { type: 'string' },
  threshold: { type: 'string' },
  'max-cycles': { type: 'string' },
  cache: { type: 'string' },
  'no-cache': { type: 'boolean' },
  'agents-dir': { type: 'string' },
  'prompts-dir': { type: 'string' },
  confine: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const MCP_USAGE = `ctxloop mcp: an MCP server on stdio (tools retrieve_context and locate_bug)

Usage:
  ctxloop mcp [--root [LABEL=]DIR]... [flags]

Flags:
  --root [LABEL=]DIR  default repository of every call (default: the current directory);
                      repeat for several, paths then read LABEL:path
  --provider NAME     auto|offline|anthropic|openai (default: auto)
  --model NAME        model for the LLM provider
  --budget TOKENS     default token budget of a pack (a call may pass its own)
  --threshold X       score 0-1 a file needs to be packed
  --max-cycles N      dispatch-evaluate-refine cycles at most, 1-3
  --cache DIR         cache directory (default: the user cache dir); kept warm between calls
  --no-cache          keep the cache in memory only, for the server's life
  --agents-dir DIR    role definitions replacing the bundled agents/
  --prompts-dir DIR   prompt templates replacing the bundled prompts/
  --confine           a call may name a root only inside the server's --root directories
                      (default: any directory the server can read)
  -q, --quiet         stderr: errors only
  --verbose           stderr: debug logs
  -h, --help          show this help

stdout carries the protocol and nothing else; logs go to stderr. The server stops when stdin
closes. Register it with a client, e.g.:  claude mcp add ctxloop -- npx ctxloop mcp
`;

/** argv (after `mcp`) → settings; a bad flag is a one-line UsageError. */
export function parseMcpArgs(argv: string[], cwd: string): McpArgs {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw toFlagError(error, Object.keys(MCP_FLAGS), 'mcp takes flags only');
  }
  rejectRepeatedFlags(parsed.tokens, MCP_FLAGS);
  const { values } = parsed;
  if (values.quiet && values.verbose) throw new UsageError('bad_option', `--quiet and --verbose cannot be used together ${SEE_HELP}`);
  // the settings flags `retrieve` also takes, read as it reads them
  const settings = settingsOf(values, cwd);
  parseSettings(settings, 'flags');
  const config: RetrieveOptions = { ...settings };
  const roots: RootSpec[] = (values.root ?? []).map((raw) => parseRootFlag(raw, cwd));
  if (roots.length > 1 || roots[0]?.label !== undefined) config.roots = roots;
  else config.root = roots[0]?.path ?? resolve(cwd);
  return { help: values.help === true, config, quiet: values.quiet === true, verbose: values.verbose === true, confine: values.confine === true };
}

function parse(argv: string[]) {
  return parseArgs({ args: argv, options: MCP_FLAGS, strict: true, allowPositionals: false, tokens: true });
}
