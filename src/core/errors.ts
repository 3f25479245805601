/**
 * One error family. `code` shares its vocabulary with `fallback.reason`, so a reason in the
 * result is the code of the error that caused it.
 */
export type ErrorCode =
  // usage
  | 'bad_option'
  | 'bad_config'
  | 'no_task'
  | 'root_not_found'
  | 'root_not_allowed'
  | 'bad_scope'
  | 'bad_prompt'
  | 'bad_agent'
  | 'egress_refused'
  // search and file system
  | 'search_failed'
  | 'rg_not_found'
  | 'fs_error'
  // cache
  | 'cache_error'
  // the server (`ctxloop serve`)
  | 'server_error'
  // providers (also the `fallback.reason` of a result)
  | ProviderErrorCode
  // run
  | 'aborted'
  | 'internal';

/** Why a provider could not be used: an error code, and the `fallback.reason` it leaves in a result. */
export type ProviderErrorCode = 'no_api_key' | 'auth_failed' | 'rate_limited' | 'provider_error' | 'unreachable' | 'timeout' | 'bad_output';

const BRAND = Symbol.for('ctxloop.error');

export interface CtxloopErrorOptions {
  hint?: string;
  cause?: unknown;
}

export class CtxloopError extends Error {
  override name = 'CtxloopError';
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: CtxloopErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
  }
}

/** Bad flag, config, task, root or scope: exit 2. */
export class UsageError extends CtxloopError {
  override name = 'UsageError';
}

/** ripgrep, glob or file-system failure: exit 1. */
export class SearchError extends CtxloopError {
  override name = 'SearchError';
}

/** The cache could not be read or written (callers usually bypass it and go on). */
export class CacheError extends CtxloopError {
  override name = 'CacheError';
}

export interface ProviderErrorOptions extends CtxloopErrorOptions {
  provider: string;
  status?: number;
  retryable?: boolean;
}

/** A model provider failed; the orchestrator falls back to offline and records `fallback.reason`. */
export class ProviderError extends CtxloopError {
  override name = 'ProviderError';
  readonly provider: string;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: ProviderErrorOptions) {
    super(code, message, options);
    this.provider = options.provider;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }
}

/** Works across duplicate module copies, unlike `instanceof` alone. */
export function isCtxloopError(value: unknown): value is CtxloopError {
  return value instanceof CtxloopError || (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true);
}

export function isProviderError(value: unknown): value is ProviderError {
  return isCtxloopError(value) && (value instanceof ProviderError || value.name === 'ProviderError');
}

export function isUsageError(value: unknown): value is UsageError {
  return isCtxloopError(value) && (value instanceof UsageError || value.name === 'UsageError');
}

/** A thrown non-Error becomes an Error that keeps the value. */
export function toError(value: unknown): Error {
  if (value instanceof Error) return value;
  const error = new Error(typeof value === 'string' ? value : `non-error thrown: ${safeString(value)}`);
  (error as Error & { value: unknown }).value = value;
  return error;
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** True when the error is an abort (ours or the platform's). */
export function isAbortError(value: unknown): boolean {
  if (isCtxloopError(value)) return value.code === 'aborted';
  return value instanceof Error && (value.name === 'AbortError' || (value as { code?: unknown }).code === 'ABORT_ERR');
}

export function abortError(): CtxloopError {
  return new CtxloopError('aborted', 'interrupted');
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError();
}

/**
 * A path or argument as an error line shows it: quoted (JSON) when it holds a control character
 * or starts or ends with white space, which the line would otherwise lose or hide (a root ending
 * in a line break was reported "not found" under its trimmed name, which exists).
 */
export function shownArgument(text: string): string {
  return /[\x00-\x1f\x7f]|^\s|\s$/.test(text) ? JSON.stringify(text) : text;
}

/** The longest error line shown: a 100 kB root echoed whole is no message anyone reads. */
const MAX_ERROR_LINE = 500;

/**
 * An error message as one line, cut in the middle past `MAX_ERROR_LINE` (both ends say what
 * matters). Another library's message: its first line. Ours (`whole`): every line, the breaks
 * written as `\n`: a break in it came from a value the user gave (`--scope 'src⏎x'`), and cut
 * there it named another path that exists (`scope not found: src`).
 */
export function errorLine(text: string, whole = false): string {
  const line = whole ? text.trim().replace(/\r?\n/g, '\\n') : (text.split('\n', 1)[0]?.trim() ?? '');
  return line.length <= MAX_ERROR_LINE ? line : `${line.slice(0, 300)}…${line.slice(-(MAX_ERROR_LINE - 301))}`;
}
