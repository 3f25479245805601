#!/usr/bin/env node
import { main } from './main.js';

// The one place that touches the process: streams, env, cwd, signals, exit status.
const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  // A second Ctrl-C means "now": the run did not stop in time, so leave without waiting for it.
  if (interrupts > 1) process.exit(130);
  controller.abort();
});

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
process.exitCode = outputFailed && code === 0 ? 1 : code;
