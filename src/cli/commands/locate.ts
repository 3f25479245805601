import { resolve } from 'node:path';
import { UsageError } from '../../core/errors.js';
import type { LocateOptions } from '../../core/options.js';
import type { LocateResult } from '../../core/types.js';
import { locate } from '../../orchestrator/locate.js';
import { parseIntFlag, SEE_HELP } from '../flag-values.js';
import { renderLocateHelp } from '../help.js';
import type { Io } from '../io.js';
import { renderLocateJson, renderLocateText } from '../render/locate.js';
import { readAll, readFlagFile } from '../task.js';
import { runToolCommand } from './tool.js';

const HINT = 'pass --error FILE, or pipe the error text with --error -';

/** `ctxloop locate --error FILE|-`: where a bug probably is, from its stack trace or error message. */
export function locateCommand(argv: string[], io: Io): Promise<number> {
  return runToolCommand<LocateResult>(argv, io, {
    help: renderLocateHelp,
    flags: { error: { type: 'string' }, 'history-depth': { type: 'string' } },
    positional: 'pass the error text with --error FILE, or on stdin',
    async run(values, common, { logger }) {
      const options: LocateOptions = { root: common.root, ...common.search, logger, env: io.env };
      if (typeof values['history-depth'] === 'string') options.historyDepth = parseIntFlag('--history-depth', values['history-depth'], 0, 100_000);
      if (io.signal) options.signal = io.signal;
      const text = await readErrorText(typeof values.error === 'string' ? values.error : undefined, io);
      return locate(text, options);
    },
    renderJson: renderLocateJson,
    renderText: renderLocateText,
  });
}

/** The error text: a file, stdin (`-`), or piped stdin when `--error` is absent; a terminal is never waited on. */
async function readErrorText(source: string | undefined, io: Io): Promise<string> {
  let text: string;
  if (source === undefined) {
    if (!io.stdin || io.stdin.isTTY === true) throw new UsageError('no_task', `no error text given ${SEE_HELP}`, { hint: HINT });
    text = await readAll(io.stdin);
  } else if (source === '-') {
    if (!io.stdin) throw new UsageError('no_task', '--error - reads stdin, but there is no stdin', { hint: HINT });
    text = await readAll(io.stdin);
  } else {
    if (source.trim() === '') throw new UsageError('bad_option', `--error must not be empty ${SEE_HELP}`, { hint: HINT });
    text = await readFlagFile('--error', resolve(io.cwd, source), io.signal);
  }
  if (!text.trim()) throw new UsageError('no_task', `the error text is empty${source && source !== '-' ? ` in ${source}` : ''}`, { hint: HINT });
  return text;
}
