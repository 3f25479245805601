import { lstat, readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { CtxloopError, UsageError } from '../../core/errors.js';
import { askServer } from '../../server/client.js';
import type { ServerStatus } from '../../server/protocol.js';
import { startDetached } from '../../server/detach.js';
import { startServer } from '../../server/serve.js';
import { serverDir, serverSocketPath, socketPathProblem } from '../../server/socket-path.js';
import { EXIT } from '../exit-codes.js';
import { reportFailure } from '../fail.js';
import { parseIntFlag, rejectRepeatedFlags, toFlagError } from '../flag-values.js';
import { readVersion } from '../help.js';
import { useColor, type Io } from '../io.js';
import { main } from '../main.js';
import { writeOutput } from '../write.js';

const DEFAULT_IDLE_MINUTES = 30;
const SEE_HELP = '(see ctxloop serve --help)';

export const SERVE_USAGE = `ctxloop serve: keep one ctxloop process running, so each command starts warm

Usage:
  ctxloop serve [--idle MINUTES]           serve in the foreground until Ctrl-C or idle
  ctxloop serve --detach [--idle MINUTES]  start a server in the background and return
  ctxloop serve --status [--json]          the server of this ctxloop: pid, commands served, memory
  ctxloop serve --stop                     stop every server in the socket directory

While a server of this build runs, \`ctxloop retrieve\`, \`locate\` and \`trace\` connect to
it and run there, with their own flags, environment, working directory, stdin and signals,
printing what they would print and exiting as they would exit. The server keeps code compiled
and grammars loaded from one command to the next, never anything found: an empty cache is as
empty as in a process of its own. Without a server, or with CTXLOOP_NO_SERVER=1, every command
runs in its own process.

The socket is in server/ in the cache directory (CTXLOOP_CACHE, else the user cache dir),
readable by this user only. A rebuilt or upgraded ctxloop uses a new socket, never an older
server's.

Flags:
  --detach         start in the background; prints the pid once the server answers
  --idle MINUTES   stop after this long with no command, 0 = never (default: ${DEFAULT_IDLE_MINUTES})
  --status         is a server of this build running, and how is it
  --stop           stop the servers (each finishes the commands it is running)
  --json           with --status: the status as JSON
  -q, --quiet      stderr: errors only
  -h, --help       show this help

Exit codes: 0 done (--stop with nothing running too), 1 failed or (--status) no server running,
2 usage, 130 interrupted.
`;

const FLAGS = {
  detach: { type: 'boolean' },
  idle: { type: 'string' },
  status: { type: 'boolean' },
  stop: { type: 'boolean' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `ctxloop serve`: returns the exit code. */
export async function serveCommand(argv: string[], io: Io): Promise<number> {
  const json = argv.includes('--json');
  try {
    let parsed: ReturnType<typeof parseServeFlags>;
    try {
      parsed = parseServeFlags(argv);
    } catch (error) {
      throw toFlagError(error, Object.keys(FLAGS), 'serve takes flags only', SEE_HELP);
    }
    rejectRepeatedFlags(parsed.tokens, FLAGS, SEE_HELP);
    const values = parsed.values;
    if (values.help) {
      await writeOutput(SERVE_USAGE, io.stdout);
      return EXIT.ok;
    }
    const modes = (['detach', 'status', 'stop'] as const).filter((mode) => values[mode]);
    if (modes.length > 1) throw new UsageError('bad_option', `--${modes[0]} and --${modes[1]} cannot be used together ${SEE_HELP}`);
    if (values.json && !values.status) throw new UsageError('bad_option', `--json goes with --status only ${SEE_HELP}`);
    if (values.idle !== undefined && (values.status || values.stop)) throw new UsageError('bad_option', `--idle goes with serving (alone or with --detach) ${SEE_HELP}`);
    const idleMinutes = values.idle === undefined ? DEFAULT_IDLE_MINUTES : parseIntFlag('--idle', values.idle, 0, 7 * 24 * 60);

    const dir = serverDir(io.env, io.cwd);
    if (dir === null) throw new CtxloopError('server_error', 'no cache directory for the server socket: no home directory was found', { hint: 'set XDG_CACHE_HOME or CTXLOOP_CACHE' });
    const socketPath = await serverSocketPath(dir);
    const quiet = values.quiet === true;
    const say = (line: string): Promise<void> => (quiet ? Promise.resolve() : writeOutput(`${line}\n`, io.stderr));

    if (values.stop) return await stopServers(dir, io);
    if (values.status) {
      const status = await askServer(socketPath, 'status');
      if (!status) {
        await writeOutput(json ? `${JSON.stringify({ running: false, socket: socketPath })}\n` : 'no server of this ctxloop is running (ctxloop serve --detach starts one)\n', json ? io.stdout : io.stderr);
        return EXIT.failed;
      }
      await writeOutput(json ? `${JSON.stringify({ running: true, ...status }, null, 2)}\n` : renderStatus(status), io.stdout);
      return EXIT.ok;
    }
    const problem = socketPathProblem(socketPath);
    if (problem) throw new CtxloopError('server_error', problem);
    const running = await askServer(socketPath, 'status');
    if (running) {
      await say(`a server of this ctxloop is already running (pid ${running.pid}, socket ${running.socket})`);
      return EXIT.ok;
    }
    if (values.detach) return await detach(socketPath, idleMinutes, io, say);

    // The binary bounds heap growth for a run in a process of its own (bin.ts); a server holds
    // more between commands, and bounded growth made each command collect more often: 2.07
    // against 1.87 s a command at 10,000 files. A server grows its heap as V8 chooses.
    setFlagsFromString('--heap-growing-percent=0');
    const server = await startServer({ socketPath, idleMs: idleMinutes * 60_000, run: main, version: await readVersion() });
    await say(`ctxloop server: pid ${process.pid}, socket ${socketPath}; ${idleMinutes > 0 ? `stops after ${idleMinutes} min idle` : 'never stops when idle'}; Ctrl-C stops it`);
    const stopped = new Promise<void>((resolve) => io.signal?.addEventListener('abort', () => resolve(), { once: true }));
    await Promise.race([server.closed, stopped]);
    // A signal stops the commands running too, as it would stop them in processes of their own.
    await server.close({ cancel: io.signal?.aborted === true });
    await say(`ctxloop server stopped after ${server.status().served} command${server.status().served === 1 ? '' : 's'}`);
    return io.signal?.aborted ? EXIT.interrupted : EXIT.ok;
  } catch (error) {
    return reportFailure(error, { stdout: io.stdout, stderr: io.stderr, format: json ? 'json' : 'md', verbose: argv.includes('--verbose'), color: useColor(io.stderr, io.env, false) });
  }
}

function parseServeFlags(argv: string[]) {
  return parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false, tokens: true });
}

async function detach(socketPath: string, idleMinutes: number, io: Io, say: (line: string) => Promise<void>): Promise<number> {
  const status = await startDetached({ socketPath, idleMinutes, env: io.env, cwd: io.cwd, ...(io.signal ? { signal: io.signal } : {}) });
  await say(`ctxloop server started: pid ${status.pid}, socket ${status.socket}; ${idleMinutes > 0 ? `stops after ${idleMinutes} min idle` : 'never stops when idle'} (ctxloop serve --stop stops it)`);
  return EXIT.ok;
}

/** Asks every server in the socket directory to stop; removes socket files no server answers on. */
async function stopServers(dir: string, io: Io): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const stopped: number[] = [];
  for (const name of names.filter((n) => n.endsWith('.sock'))) {
    const path = join(dir, name);
    const status = await askServer(path, 'stop');
    if (status) stopped.push(status.pid);
    else if ((await lstat(path).catch(() => undefined))?.isSocket()) await unlink(path).catch(() => undefined);
  }
  await writeOutput(stopped.length === 0 ? 'no server was running\n' : `stopping ${stopped.length} server${stopped.length === 1 ? '' : 's'} (pid ${stopped.join(', ')}); each finishes the commands it is running\n`, io.stdout);
  return EXIT.ok;
}

function renderStatus(status: ServerStatus): string {
  const minutes = Math.round((Date.now() - Date.parse(status.startedAt)) / 60_000);
  return [
    `ctxloop server ${status.version}: pid ${status.pid}, up ${minutes} min, ${status.served} command${status.served === 1 ? '' : 's'} served, ${status.active} running`,
    `  socket  ${status.socket}`,
    `  memory  ${status.rssMb} MB (peak ${status.peakRssMb} MB)`,
    `  stops   ${status.idleMinutes > 0 ? `after ${status.idleMinutes} min idle` : 'never when idle'}`,
    '',
  ].join('\n');
}
