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

// A reader that closed the pipe (`ctxloop … | head`) is not an error worth a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
});
