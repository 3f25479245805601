import { abortError } from '../../core/errors.js';
import type { RetrieveOptions } from '../../core/options.js';
import type { RetrieveResult } from '../../core/types.js';
import { parseRetrieveArgs, wantsHelp, type OutputFormat, type RetrieveArgs } from '../args.js';
import { exitCodeFor } from '../exit-codes.js';
import { guessFailureView, reportFailure, type FailureView } from '../fail.js';
import { renderRetrieveHelp } from '../help.js';
import { useColor, type Io } from '../io.js';
import { createReporter, type Reporter } from '../progress.js';
import { renderJson } from '../render/json.js';
import { renderMarkdown } from '../render/md.js';
import { renderPaths } from '../render/paths.js';
import { readTask } from '../task.js';
import { writeOutput } from '../write.js';

/** The library call the command makes: `retrieve()` in the binary, a fake in tests. */
export type RunRetrieve = (task: string, options?: RetrieveOptions) => Promise<RetrieveResult>;

const RENDERERS: Record<OutputFormat, (result: RetrieveResult, to: { terminal: boolean }) => string> = {
  json: renderJson,
  md: renderMarkdown,
  paths: renderPaths,
};

/** `ctxloop retrieve`: argv → options → `run()` → render → exit code. */
export async function runRetrieveCommand(argv: string[], io: Io, run: RunRetrieve): Promise<number> {
  if (wantsHelp(argv)) {
    await writeOutput(renderRetrieveHelp(), io.stdout);
    return 0;
  }
  let view: FailureView = guessFailureView(argv, io);
  try {
    const args = parseRetrieveArgs(argv, io.cwd);
    view = { ...view, format: args.format, verbose: args.verbose, color: useColor(io.stderr, io.env, args.noColor) };
    const task = await readTask(args.task, io);
    const reporter = createReporter({ stderr: io.stderr, quiet: args.quiet, verbose: args.verbose, color: view.color });
    const result = await run(task, optionsOf(args, reporter, io));
    await writeOutput(RENDERERS[args.format](result, { terminal: io.stdout.isTTY === true }), io.stdout);
    reporter.finish(result);
    // A run that returned although Ctrl-C was pressed still printed what it had; the status says it was cut short.
    return exitCodeFor(io.signal?.aborted ? { ok: false, error: abortError() } : { ok: true });
  } catch (error) {
    return reportFailure(error, view);
  }
}

/** The run's options: the flags, and the caller's environment (a server runs with its client's, never its own). */
function optionsOf(args: RetrieveArgs, reporter: Reporter, io: Io): RetrieveOptions {
  const options: RetrieveOptions = {
    ...args.settings,
    // The Markdown pack is for reading: it carries the code it counted.
    ...(args.format === 'md' ? { withContent: true } : {}),
    ...(args.roots ? { roots: args.roots } : { root: args.root }),
    logger: reporter.logger,
    onProgress: reporter.onProgress,
    env: io.env,
  };
  if (io.signal) options.signal = io.signal;
  return options;
}
