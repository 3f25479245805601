import { isAbortError, isCtxloopError, isUsageError, type ErrorCode } from '../core/errors.js';

/** How a command ended, as far as the exit status is concerned. */
export type Outcome = { ok: true } | { ok: false; error: unknown };

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The table printed by `--help` (and copied to the README). */
export const EXIT_CODE_TABLE: ReadonlyArray<readonly [ExitCode, string]> = [
  [EXIT.ok, 'the run finished and the result was printed, even if no file reached the threshold (stderr says so)'],
  [EXIT.failed, 'the run failed: search, file system, cache, or an unexpected error'],
  [EXIT.usage, 'usage: bad flag or config, no task, root not found'],
  [EXIT.interrupted, 'interrupted (Ctrl-C)'],
];

// Usage codes count as usage even when thrown as a plain CtxloopError by a stage.
const USAGE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'bad_option',
  'bad_config',
  'no_task',
  'root_not_found',
  'root_not_allowed',
  'bad_scope',
  'bad_prompt',
  'bad_agent',
  'egress_refused',
]);

/**
 * The exit status for an outcome. A provider failure never gets here as such: the orchestrator
 * falls back to offline and records `fallback.reason`, so the run still ends with 0.
 */
export function exitCodeFor(outcome: Outcome): ExitCode {
  if (outcome.ok) return EXIT.ok;
  const { error } = outcome;
  if (isAbortError(error)) return EXIT.interrupted;
  if (isUsageError(error)) return EXIT.usage;
  if (isCtxloopError(error) && USAGE_CODES.has(error.code)) return EXIT.usage;
  return EXIT.failed;
}

/** The signals that stop a run the way Ctrl-C does, and the status each leaves: 128 + its number. */
export const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type StopSignal = keyof typeof SIGNAL_EXIT;

export function isStopSignal(name: string): name is StopSignal {
  return Object.hasOwn(SIGNAL_EXIT, name);
}

/** A run interrupted (130) by a signal other than Ctrl-C exits with that signal's status. */
export function exitCodeAfterSignal(code: number, signal: StopSignal | undefined): number {
  return signal !== undefined && code === EXIT.interrupted ? SIGNAL_EXIT[signal] : code;
}
