#!/usr/bin/env node
import { main } from './main.js';

// The one place that touches the process: streams, env, cwd, signals, exit status.
// Ctrl-C, and a host or supervisor stopping the process (SIGTERM: `timeout`, an MCP client, a
// container; SIGHUP: the terminal gone), stop the run the same way: searches and model calls
// cancelled, rg stopped, the cache as it was. Without a handler SIGTERM killed Node at once and
// left rg running on its own. Exit 128 + the signal's number.
const controller = new AbortController();
const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };
let stoppedBy: NodeJS.Signals | undefined;
for (const signal of Object.keys(SIGNAL_EXIT) as NodeJS.Signals[]) {
  process.on(signal, () => {
    // A second signal means "now": the run did not stop in time, so leave without waiting for it.
    if (stoppedBy !== undefined) process.exit(SIGNAL_EXIT[signal]);
    stoppedBy = signal;
    controller.abort();
  });
}

// A reader that closed the pipe (`ctxloop … | head`) is not an error worth a stack trace; any
// other failure to write the output (a full disk, /dev/full) is reported by the command that
// wrote (`write.ts`), in one line, and the exit status is 1 whatever it returned.
let outputFailed = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') outputFailed = true;
});

// stderr carries progress and warnings only: when it cannot be written (a closed pipe, a full
// disk) they are lost, not the run. Without a listener the first failed write crashed the
// process, the result unprinted and the MCP server gone.
process.stderr.on('error', () => undefined);

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});
process.exitCode = stoppedBy !== undefined && stoppedBy !== 'SIGINT' && code === 130 ? SIGNAL_EXIT[stoppedBy] : outputFailed && code === 0 ? 1 : code;
