import { abortError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { wantsHelp } from '../args.js';
import { exitCodeFor } from '../exit-codes.js';
import { guessFailureView, reportFailure, type FailureView } from '../fail.js';
import { useColor, type Io } from '../io.js';
import { createReporter } from '../progress.js';
import { parseToolArgs, type FlagValues, type ToolArgs } from '../tool-args.js';
import { writeOutput } from '../write.js';

/** A command beside `retrieve` (`trace`, `locate`): its flags, its library call, its two renderings. */
export interface ToolCommand<R> {
  help(): string;
  flags: Parameters<typeof parseToolArgs>[2];
  /** How the command's own input is given, for a stray argument: `pass the symbol with --symbol NAME`. */
  positional: string;
  run(values: FlagValues, common: ToolArgs, context: { io: Io; logger: Logger }): Promise<R>;
  renderJson(result: R): string;
  renderText(result: R): string;
}

/** argv → flags → the library call → stdout (JSON or text) → exit code; failures as `retrieve` reports them. */
export async function runToolCommand<R>(argv: string[], io: Io, command: ToolCommand<R>): Promise<number> {
  if (wantsHelp(argv)) {
    await writeOutput(command.help(), io.stdout);
    return 0;
  }
  let view: FailureView = guessFailureView(argv, io);
  try {
    const { values, common } = parseToolArgs(argv, io.cwd, command.flags, command.positional);
    view = { ...view, format: common.json ? 'json' : 'md', verbose: common.verbose, color: useColor(io.stderr, io.env, common.noColor) };
    const reporter = createReporter({ stderr: io.stderr, quiet: common.quiet, verbose: common.verbose, color: view.color });
    const result = await command.run(values, common, { io, logger: reporter.logger });
    await writeOutput(common.json ? command.renderJson(result) : command.renderText(result), io.stdout);
    return exitCodeFor(io.signal?.aborted ? { ok: false, error: abortError() } : { ok: true });
  } catch (error) {
    return reportFailure(error, view);
  }
}
