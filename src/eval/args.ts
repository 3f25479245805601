import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { rejectRepeatedFlags, toFlagError } from '../cli/flag-values.js';
import { UsageError } from '../core/errors.js';
import type { ProviderName } from '../core/options.js';
import type { EvalMethod } from './types.js';

const PROVIDERS: readonly ProviderName[] = ['offline', 'auto', 'anthropic', 'openai'];
const SEE_EVAL_HELP = '(see ctxloop eval --help)';

export const EVAL_USAGE = `Usage: ctxloop eval --dataset FILE.jsonl --repos DIR [options]

Runs a retrieval method over labelled tasks and prints Acc@1, Hit@5, Acc@5, Recall@10, MRR,
files and tokens packed and seconds per task, overall and per language.

Options:
  --dataset FILE      JSONL tasks: {id, repo, base_commit, task, gold_files, language?} (required)
  --repos DIR         mirrors as DIR/<owner>+<name>/repo, DIR/<owner>+<name> or DIR/<owner>/<name> (required)
  --method NAME       ctxloop (offline loop) or bm25 (the baseline)           [default: ctxloop]
  --limit N           the first N tasks (after --only)
  --only REGEX        tasks whose id matches REGEX
  --max-cycles N      cycles at most for ctxloop (1-3)
  --provider NAME     who judges for ctxloop: offline, auto, anthropic or openai   [default: offline]
                      (keys and base URLs from ANTHROPIC_* / OPENAI_*; reports model tokens per task)
  --model NAME        model for the provider
  --compare-cycles    also run ctxloop with one cycle and show both
  --work DIR          clones, cache and records          [default: <user cache dir>/ctxloop/eval]
  --out FILE.jsonl    per-task records                   [default: <work>/runs/<method>-<time>.jsonl]
  --no-cache          run ctxloop without its cache
  --json              print the report as JSON
  -h, --help          show this help

Exit codes: 0 report printed (failed tasks count as misses), 1 run failed, 2 usage, 130 interrupted.
`;

export interface EvalCommandOptions {
  dataset: string;
  repos: string;
  method: EvalMethod;
  limit?: number;
  only?: RegExp;
  maxCycles?: number;
  provider: ProviderName;
  model?: string;
  compareCycles: boolean;
  work?: string;
  out?: string;
  cache: boolean;
  json: boolean;
}

const FLAGS = {
  dataset: { type: 'string' },
  repos: { type: 'string' },
  method: { type: 'string' },
  limit: { type: 'string' },
  only: { type: 'string' },
  'max-cycles': { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  'compare-cycles': { type: 'boolean' },
  work: { type: 'string' },
  out: { type: 'string' },
  'no-cache': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * argv → options (paths absolute against `cwd`), or 'help'. Bad flags throw `UsageError`: an
 * empty value (`--work "$UNSET"` made the current directory the work dir, and a folder there
 * named like a mirror was replaced by a clone) and a flag given twice among them.
 */
export function parseEvalArgs(argv: string[], cwd: string): EvalCommandOptions | 'help' {
  const values = parseFlags(argv);
  if (values.help) return 'help';
  for (const flag of ['dataset', 'repos', 'work', 'out', 'only'] as const) {
    if (values[flag] !== undefined && values[flag].trim() === '') throw usage(`--${flag} must not be empty`);
  }
  if (values.dataset === undefined) throw usage('--dataset FILE is required');
  if (values.repos === undefined) throw usage('--repos DIR is required');
  const method = values.method ?? 'ctxloop';
  if (method !== 'ctxloop' && method !== 'bm25') throw usage(`--method must be ctxloop or bm25 (got ${JSON.stringify(method)})`);
  const provider = values.provider ?? 'offline';
  if (!PROVIDERS.includes(provider as ProviderName)) throw usage(`--provider must be one of ${PROVIDERS.join(', ')} (got ${JSON.stringify(provider)})`);
  if (provider !== 'offline' && method !== 'ctxloop') throw usage('--provider needs --method ctxloop');
  const compareCycles = values['compare-cycles'] ?? false;
  if (compareCycles && method !== 'ctxloop') throw usage('--compare-cycles needs --method ctxloop');
  const options: EvalCommandOptions = {
    dataset: resolve(cwd, values.dataset),
    repos: resolve(cwd, values.repos),
    method,
    provider: provider as ProviderName,
    compareCycles,
    cache: !(values['no-cache'] ?? false),
    json: values.json ?? false,
  };
  if (values.limit !== undefined) options.limit = parseCount('--limit', values.limit, 1, Number.MAX_SAFE_INTEGER);
  if (values['max-cycles'] !== undefined) options.maxCycles = parseCount('--max-cycles', values['max-cycles'], 1, 3);
  if (values.only !== undefined) options.only = parseRegex(values.only);
  if (values.model !== undefined) {
    if (!values.model.trim()) throw usage('--model must not be empty');
    options.model = values.model.trim();
  }
  if (values.work !== undefined) options.work = resolve(cwd, values.work);
  if (values.out !== undefined) options.out = resolve(cwd, values.out);
  return options;
}

function parseFlags(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false, tokens: true });
  } catch (error) {
    throw toFlagError(error, Object.keys(FLAGS), 'eval takes flags only', SEE_EVAL_HELP);
  }
  rejectRepeatedFlags(parsed.tokens, FLAGS, SEE_EVAL_HELP);
  return parsed.values;
}

function parseCount(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw usage(`${flag} must be a whole number${max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : ` ≥ ${min}`} (got ${JSON.stringify(text)})`);
  }
  return value;
}

function parseRegex(text: string): RegExp {
  try {
    return new RegExp(text);
  } catch (error) {
    throw usage(`--only is not a valid regular expression: ${JSON.stringify(text)}`, error);
  }
}

function usage(message: string, cause?: unknown): UsageError {
  return new UsageError('bad_option', `${message} ${SEE_EVAL_HELP}`, cause === undefined ? {} : { cause });
}
