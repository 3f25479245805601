import { errorLine, isAbortError, isCtxloopError, toError, UsageError } from '../core/errors.js';
import { shownText } from '../core/pack-text.js';
import { guessFormat, type OutputFormat } from './args.js';
import { exitCodeFor, type ExitCode } from './exit-codes.js';
import { createPaint, useColor, type Io } from './io.js';
import { renderJsonError } from './render/json.js';
import { writeOutput, type OutputStream } from './write.js';

export interface FailureView {
  stdout: OutputStream;
  stderr: OutputStream;
  format: OutputFormat;
  verbose: boolean;
  color: boolean;
}

/**
 * Reports a failed command and returns its exit code. stderr: `ctxloop: <message>`, then the
 * hint; a stack trace only with `--verbose`, or for an error that is not ours (then flagged as a
 * bug). With JSON output, stdout also gets `{"error":{"code","message"}}`.
 */
/**
 * How a failure is reported before the flags have parsed: their meaning guessed from argv, so
 * even a bad flag is reported as JSON when JSON was asked for.
 */
export function guessFailureView(argv: readonly string[], io: Pick<Io, 'stdout' | 'stderr' | 'env'>): FailureView {
  return {
    stdout: io.stdout,
    stderr: io.stderr,
    format: guessFormat(argv),
    verbose: argv.includes('--verbose'),
    color: useColor(io.stderr, io.env, argv.includes('--no-color')),
  };
}

export async function reportFailure(thrown: unknown, view: FailureView): Promise<ExitCode> {
  const code = exitCodeFor({ ok: false, error: thrown });
  const ours = isCtxloopError(thrown);
  const error = toError(thrown);
  const aborted = isAbortError(thrown);
  const message = aborted && !ours ? 'interrupted' : errorLine(error.message, ours) || error.name;
  const paint = createPaint(view.color);
  // A message may quote the repository (a config file's unknown key, a glob rg refused, an agent
  // file's name): its control characters show as U+FFFD, or an escape there cleared the screen.
  const lines = [`${paint.red('ctxloop:')} ${shownText(message)}`];
  if (ours && thrown.hint) lines.push(`  hint: ${shownText(thrown.hint)}`);
  if (!ours && !aborted) lines.push('this is a bug, please report it');
  // a usage error is the caller's: its stack says nothing to them, --verbose or not
  if ((view.verbose && !(thrown instanceof UsageError)) || (!ours && !aborted)) lines.push(...traceOf(error).map(shownText));
  // where the output cannot be written (the failure itself, maybe), the exit status still says it
  await writeOutput(`${lines.join('\n')}\n`, view.stderr).catch(() => undefined);
  if (view.format === 'json') {
    const errorCode = ours ? thrown.code : aborted ? 'aborted' : 'internal';
    await writeOutput(renderJsonError(errorCode, message), view.stdout).catch(() => undefined);
  }
  return code;
}

/** The stack and every `cause` below it (at most five deep), indented under the message. */
function traceOf(error: Error): string[] {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    const err = toError(current);
    const [head = '', ...frames] = (err.stack ?? `${err.name}: ${err.message}`).split('\n');
    lines.push(`  ${depth > 0 ? 'caused by: ' : ''}${head.trim()}`, ...frames.map((frame) => `    ${frame.trim()}`));
    current = err.cause;
  }
  return lines;
}
