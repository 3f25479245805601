import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../core/errors.js';
import { parseSettings, type ProviderName, type RetrieveOptions, type RootSpec } from '../core/options.js';
import { isRootLabel, LABEL_RULE } from '../core/roots.js';
import { parseChoiceFlag, parseNumberFlag, parsePathFlag, parseTextFlag, PROVIDERS, SEE_HELP, rejectRepeatedFlags, toFlagError } from './flag-values.js';

export const FORMATS = ['json', 'md', 'paths'] as const;
export type OutputFormat = (typeof FORMATS)[number];

/** Where the task comes from. `stdin` = piped input (or `--task-file -`). */
export type TaskSource = { kind: 'text'; text: string } | { kind: 'file'; path: string } | { kind: 'stdin' };

/** The `retrieve()` options a flag can set. */
export type FlagSettings = Pick<
  RetrieveOptions,
  'maxCycles' | 'threshold' | 'budget' | 'scope' | 'include' | 'exclude' | 'provider' | 'model' | 'cache' | 'agentsDir' | 'promptsDir' | 'withContent' | 'deep' | 'deepDepth' | 'noEgress'
>;

/** `ctxloop retrieve` after parsing and validation; paths are absolute (resolved against cwd). */
export interface RetrieveArgs {
  help: boolean;
  /** Undefined when neither `--task` nor `--task-file` was given: stdin, if piped. */
  task: TaskSource | undefined;
  format: OutputFormat;
  /** The root, or the first of several. */
  root: string;
  /** Set when `--root` was repeated or labelled (`--root api=../api`): a run over several roots. */
  roots?: RootSpec[];
  /** Validated settings for `retrieve()`; only what was given. */
  settings: FlagSettings;
  quiet: boolean;
  verbose: boolean;
  noColor: boolean;
}

/** The flags of `retrieve`, in `util.parseArgs` form. Help text lives in help.ts. */
export const RETRIEVE_FLAGS = {
  task: { type: 'string' },
  'task-file': { type: 'string' },
  root: { type: 'string', multiple: true },
  format: { type: 'string' },
  json: { type: 'boolean' },
  'max-cycles': { type: 'string' },
  threshold: { type: 'string' },
  budget: { type: 'string' },
  scope: { type: 'string', multiple: true },
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  provider: { type: 'string' },
  model: { type: 'string' },
  cache: { type: 'string' },
  'no-cache': { type: 'boolean' },
  'with-content': { type: 'boolean' },
  deep: { type: 'boolean' },
  depth: { type: 'string' },
  'no-egress': { type: 'boolean' },
  'agents-dir': { type: 'string' },
  'prompts-dir': { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseRetrieveValues>['values'];

function parseRetrieveValues(argv: string[]) {
  return parseArgs({ args: argv, options: RETRIEVE_FLAGS, strict: true, allowPositionals: false, tokens: true });
}

const conflict = (message: string): UsageError => new UsageError('bad_option', `${message} ${SEE_HELP}`);

/** argv (after `retrieve`) → validated arguments. Throws `UsageError` naming the flag. */
export function parseRetrieveArgs(argv: string[], cwd: string): RetrieveArgs {
  let parsed: ReturnType<typeof parseRetrieveValues>;
  try {
    parsed = parseRetrieveValues(argv);
  } catch (error) {
    throw toFlagError(error, Object.keys(RETRIEVE_FLAGS));
  }
  rejectRepeatedFlags(parsed.tokens, RETRIEVE_FLAGS);
  const { values } = parsed;
  if (values.quiet && values.verbose) throw conflict('--quiet and --verbose cannot be used together');
  const settings = settingsOf(values, cwd);
  // Each flag was checked above with a message naming it; this is the same schema the config
  // file and environment go through, so the three sources can never disagree.
  parseSettings(settings, 'flags');
  const roots = (values.root ?? []).map((raw) => parseRootFlag(raw, cwd));
  const args: RetrieveArgs = {
    help: values.help === true,
    task: taskOf(values, cwd),
    format: formatOf(values),
    root: roots[0]?.path ?? resolve(cwd),
    settings,
    quiet: values.quiet === true,
    verbose: values.verbose === true,
    noColor: values['no-color'] === true,
  };
  if (roots.length > 1 || roots[0]?.label !== undefined) args.roots = roots;
  return args;
}

/**
 * `--root DIR` or `--root LABEL=DIR`. A value whose part before the first `=` holds no `/` is a
 * label and a path; `./a=b` is a path. Labels are checked here, duplicates by the library.
 */
export function parseRootFlag(raw: string, cwd: string): RootSpec {
  const value = parsePathFlag('--root', raw);
  const at = value.indexOf('=');
  if (at < 0 || /[/\\]/.test(value.slice(0, at))) return { path: resolve(cwd, value) };
  const label = value.slice(0, at).trim();
  // the label's spaces are not the path's (`web = repo`); a name may end in a space, so the end is kept
  const path = value.slice(at + 1).trimStart();
  if (!isRootLabel(label)) throw new UsageError('bad_option', `--root ${value}: bad label ${JSON.stringify(label)} (${LABEL_RULE}) ${SEE_HELP}`);
  if (!path.trim()) throw new UsageError('bad_option', `--root ${value}: no directory after "=" ${SEE_HELP}`);
  return { label, path: resolve(cwd, path) };
}

/**
 * True when a help flag is anywhere in argv, alone or among short flags run together (`-qh`, as
 * `util.parseArgs` reads them: `-hq` used to run the command): help wins over every other
 * mistake on the line. Nothing after `--` is a flag.
 */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || /^-[qh]*h[qh]*$/.test(arg));
}

/** Best guess at the output format before (or when) parsing fails, so errors still print as JSON. */
export function guessFormat(argv: readonly string[]): OutputFormat {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json' || arg === '--format=json' || (arg === '--format' && argv[i + 1] === 'json')) return 'json';
  }
  return 'md';
}

function taskOf(values: Values, cwd: string): TaskSource | undefined {
  const text = values.task;
  const file = values['task-file'];
  if (text !== undefined && file !== undefined) throw conflict('--task and --task-file cannot be used together');
  if (text !== undefined) return { kind: 'text', text };
  if (file === undefined) return undefined;
  if (file === '-') return { kind: 'stdin' };
  return { kind: 'file', path: resolve(cwd, parsePathFlag('--task-file', file)) };
}

function formatOf(values: Values): OutputFormat {
  const format = values.format === undefined ? undefined : parseChoiceFlag('--format', values.format, FORMATS);
  if (values.json && format !== undefined && format !== 'json') throw conflict(`--json conflicts with --format ${format}`);
  return values.json ? 'json' : (format ?? 'md');
}

/** The settings flags (`retrieve`'s, or the subset another command takes), each checked with a message naming it. */
export function settingsOf(values: Values, cwd: string): FlagSettings {
  const settings: FlagSettings = {};
  if (values['max-cycles'] !== undefined) settings.maxCycles = parseNumberFlag('--max-cycles', values['max-cycles'], 'maxCycles');
  if (values.threshold !== undefined) settings.threshold = parseNumberFlag('--threshold', values.threshold, 'threshold');
  if (values.budget !== undefined) settings.budget = parseNumberFlag('--budget', values.budget, 'budget');
  if (values.scope) settings.scope = values.scope.map((v) => parseTextFlag('--scope', v));
  if (values.include) settings.include = values.include.map((v) => parseTextFlag('--include', v));
  if (values.exclude) settings.exclude = values.exclude.map((v) => parseTextFlag('--exclude', v));
  if (values.provider !== undefined) settings.provider = parseChoiceFlag<ProviderName>('--provider', values.provider, PROVIDERS);
  if (values.model !== undefined) settings.model = parseTextFlag('--model', values.model);
  if (values.cache !== undefined && values['no-cache']) throw conflict('--cache and --no-cache cannot be used together');
  if (values.cache !== undefined) settings.cache = resolve(cwd, parsePathFlag('--cache', values.cache));
  if (values['no-cache']) settings.cache = false;
  if (values['with-content']) settings.withContent = true;
  if (values.depth !== undefined && !values.deep) throw conflict('--depth needs --deep (it sets how many hops deep mode follows)');
  if (values.deep) settings.deep = true;
  if (values.depth !== undefined) settings.deepDepth = parseNumberFlag('--depth', values.depth, 'deepDepth');
  if (values['no-egress']) settings.noEgress = true;
  if (values['agents-dir'] !== undefined) settings.agentsDir = resolve(cwd, parsePathFlag('--agents-dir', values['agents-dir']));
  if (values['prompts-dir'] !== undefined) settings.promptsDir = resolve(cwd, parsePathFlag('--prompts-dir', values['prompts-dir']));
  return settings;
}
