#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { exitCodeAfterSignal, SIGNAL_EXIT, type StopSignal } from './exit-codes.js';
import { runOnServer } from './on-server.js';

// V8 grows the heap by a factor it picks from how fast it collects, and on a machine with memory
// to spare it let a cold run at 100,000 files reach 460–565 MB of RSS whose live data was 140 MB.
// Growing by 1.5 at most keeps that run at 380–430 MB, in the same time (12.1 against 12.3 s
// mean, three tasks twice); at 10,000 files the heap never gets large enough for it to matter.
// The flag is read at each collection, so setting it here, after start, works.
setFlagsFromString('--heap-growing-percent=50');

// The one place that touches the process: streams, env, cwd, signals, exit status.
// Ctrl-C, and a host or supervisor stopping the process (SIGTERM: `timeout`, an MCP client, a
// container; SIGHUP: the terminal gone), stop the run the same way: searches and model calls
// cancelled, rg stopped, the cache as it was. Without a handler SIGTERM killed Node at once and
// left rg running on its own. Exit 128 + the signal's number. A run on a server (`ctxloop
// serve`) gets the signal passed on, and stops there the same way.
const controller = new AbortController();
let stoppedBy: StopSignal | undefined;
let passOn: ((signal: StopSignal) => void) | undefined;
for (const signal of Object.keys(SIGNAL_EXIT) as StopSignal[]) {
  process.on(signal, () => {
    // A second signal means "now": the run did not stop in time, so leave without waiting for it.
    if (stoppedBy !== undefined) process.exit(SIGNAL_EXIT[signal]);
    stoppedBy = signal;
    if (passOn) passOn(signal);
    else controller.abort();
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

const argv = process.argv.slice(2);
const cwd = currentDirectory();
const proc = { argv, env: process.env, cwd: cwd ?? '/', stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
// A working directory removed under the shell: relative paths would mean nothing. Help and the version need none.
const homeless = cwd === undefined && !['--help', '-h', 'help', '--version', '-v'].includes(argv[0] ?? '');
if (homeless) process.stderr.write('ctxloop: the current directory no longer exists: cd to one that does and run again\n');
let code = homeless ? 1 : await runOnServer(proc, controller.signal, (forward) => (passOn = forward));
if (code === undefined) {
  passOn = undefined;
  // a signal passed to a server that then went away unheard stops the run here instead
  if (stoppedBy !== undefined) controller.abort();
  // Loaded here, not at the top: a command a server ran never needs the CLI or the search stack.
  const { main } = await import('./main.js');
  code = exitCodeAfterSignal(await main(argv, { ...proc, signal: controller.signal }), stoppedBy);
}
process.exitCode = outputFailed && code === 0 ? 1 : code;

/** The working directory; undefined when it was removed. */
function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
