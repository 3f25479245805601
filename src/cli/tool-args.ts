import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { SearchOptions } from '../core/options.js';
import { parsePathFlag, parseTextFlag, rejectRepeatedFlags, toFlagError } from './flag-values.js';

/** The flags `trace` and `locate` share with `retrieve`: where to search, output, stderr. Help text lives in help.ts. */
export const TOOL_FLAGS = {
  root: { type: 'string' },
  scope: { type: 'string', multiple: true },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  cache: { type: 'string' },
  'no-cache': { type: 'boolean' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type FlagSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export interface ToolArgs {
  root: string;
  search: Pick<SearchOptions, 'scope' | 'include' | 'exclude' | 'cache'>;
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  noColor: boolean;
}

/** argv → the command's own flag values and the shared ones, checked. Throws `UsageError` naming the flag. */
export function parseToolArgs(argv: string[], cwd: string, own: FlagSpec, positional?: string): { values: FlagValues; common: ToolArgs } {
  const options = { ...TOOL_FLAGS, ...own };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    throw toFlagError(error, Object.keys(options), positional);
  }
  rejectRepeatedFlags(parsed.tokens ?? [], options);
  const values = parsed.values as FlagValues;
  const path = (flag: string): string | undefined => (typeof values[flag] === 'string' ? parsePathFlag(`--${flag}`, values[flag]) : undefined);
  const list = (flag: string): string[] | undefined => (Array.isArray(values[flag]) ? values[flag].map((v) => parseTextFlag(`--${flag}`, v)) : undefined);
  if (values.quiet && values.verbose) throw toFlagError(new Error('--quiet and --verbose cannot be used together'), []);
  if (values.cache !== undefined && values['no-cache']) throw toFlagError(new Error('--cache and --no-cache cannot be used together'), []);
  const search: ToolArgs['search'] = {};
  const scope = list('scope');
  const include = list('include');
  const exclude = list('exclude');
  const cache = path('cache');
  if (scope) search.scope = scope;
  if (include) search.include = include;
  if (exclude) search.exclude = exclude;
  if (cache !== undefined) search.cache = resolve(cwd, cache);
  if (values['no-cache']) search.cache = false;
  return {
    values,
    common: {
      root: resolve(cwd, path('root') ?? '.'),
      search,
      json: values.json === true,
      quiet: values.quiet === true,
      verbose: values.verbose === true,
      noColor: values['no-color'] === true,
    },
  };
}
