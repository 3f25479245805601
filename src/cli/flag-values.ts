import type { parseArgs, ParseArgsConfig } from 'node:util';
import { UsageError } from '../core/errors.js';
import { settingsSchema } from '../core/options.js';
import { parseDecimal } from '../core/numbers.js';
import { suggestName } from '../core/suggest.js';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;
type ArgToken = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** Ends every message about a bad flag, so the next step is obvious. */
export const SEE_HELP = '(see ctxloop --help)';

const badFlag = (message: string): UsageError => new UsageError('bad_option', message);

type NumberField = 'maxCycles' | 'threshold' | 'budget' | 'deepDepth';

/**
 * A numeric flag checked against the bounds of `settingsSchema` (one source of truth for
 * flags, environment and config file), with a message naming the flag:
 * `--threshold must be between 0 and 1 (got 2)`.
 */
export function parseNumberFlag(flag: string, raw: string, field: NumberField): number {
  const schema = settingsSchema.shape[field].unwrap();
  const value = parseDecimal(raw);
  if (!Number.isFinite(value)) throw badFlag(`${flag} must be a number (got ${JSON.stringify(raw)})`);
  if (schema.isInt && !Number.isInteger(value)) throw badFlag(`${flag} must be a whole number (got ${raw})`);
  if (!schema.safeParse(value).success) {
    throw badFlag(`${flag} must be between ${schema.minValue} and ${schema.maxValue} (got ${raw})`);
  }
  return value;
}

/** A flag whose value is one of a fixed list. */
export function parseChoiceFlag<T extends string>(flag: string, raw: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw badFlag(`${flag} must be one of ${choices.join(', ')} (got ${JSON.stringify(raw)})`);
}

/** A string flag that must say something (`--model ""` is a mistake, not a choice). */
export function parseTextFlag(flag: string, raw: string): string {
  const value = raw.trim();
  if (!value) throw badFlag(`${flag} must not be empty`);
  return value;
}

/**
 * A file or directory, taken as written: a name may end in a space, and trimmed, `--cache 'c '`
 * wrote to `c`, a directory the user never named, and `--root 'r '` searched `r`.
 */
export function parsePathFlag(flag: string, raw: string): string {
  if (!raw.trim()) throw badFlag(`${flag} must not be empty`);
  return raw;
}

/**
 * A flag that takes one value given twice (`--task a --task b`): `util.parseArgs` keeps the last
 * one without a word, and the first was surely meant too. `tokens`: those of the parse (`tokens: true`).
 */
export function rejectRepeatedFlags(tokens: readonly ArgToken[], options: ParseArgsOptionsConfig, seeHelp = SEE_HELP): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const spec = options[token.name];
    if (!spec || spec.type !== 'string' || spec.multiple) continue;
    if (seen.has(token.name)) throw badFlag(`--${token.name} given more than once ${seeHelp}`);
    seen.add(token.name);
  }
}

/** The providers the orchestrator accepts; it decides what `auto` means. */
export const PROVIDERS = settingsSchema.shape.provider.unwrap().options;

/**
 * Turns a `util.parseArgs` error into one line ending with `(see ctxloop --help)`. Node's own
 * messages span several lines and mention positional-argument tricks nobody asked about.
 */
export function toFlagError(error: unknown, known: readonly string[], positional = 'pass the task with --task "…"', seeHelp = SEE_HELP): UsageError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-{1,2}[^'\s<]+)/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const guess = suggestName(flag.replace(/^-+/, ''), known);
    return badFlag(`unknown flag ${flag}${guess ? `, did you mean --${guess}?` : ''} ${seeHelp}`);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const arg = /'([^']*)'/.exec(message)?.[1] ?? '';
    return badFlag(`unexpected argument ${JSON.stringify(arg)}: ${positional} ${seeHelp}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('does not take an argument')) return badFlag(`${flag} does not take a value ${seeHelp}`);
    if (message.includes('ambiguous')) return badFlag(`${flag} needs a value (write ${flag}=-… for one starting with "-") ${seeHelp}`);
    return badFlag(`${flag} needs a value ${seeHelp}`);
  }
  return badFlag(`${message.split('\n')[0] ?? message} ${seeHelp}`);
}

/** A whole-number flag within bounds, for flags that are not settings (`--depth`, `--history-depth`). */
export function parseIntFlag(flag: string, raw: string, min: number, max: number): number {
  const value = parseDecimal(raw);
  if (!Number.isInteger(value)) throw badFlag(`${flag} must be a whole number (got ${JSON.stringify(raw)})`);
  if (value < min || value > max) throw badFlag(`${flag} must be between ${min} and ${max} (got ${raw})`);
  return value;
}
