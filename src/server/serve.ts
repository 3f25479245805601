import { chmod, lstat, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import pLimit from 'p-limit';
import { z } from 'zod';
import { CtxloopError, isCtxloopError } from '../core/errors.js';
import { makeDirectory } from '../core/make-directory.js';
import { exitCodeAfterSignal, isStopSignal, type StopSignal } from '../cli/exit-codes.js';
import type { InputStream, Io } from '../cli/io.js';
import type { OutputStream } from '../cli/write.js';
import { encodeFrame, FRAME, PROTOCOL_VERSION, readFrames, type ServerRequest, type ServerStatus } from './protocol.js';

/** The command line the server runs for each client: `main` of the CLI. */
export type RunCommand = (argv: string[], io: Io) => Promise<number>;

export interface ServerOptions {
  socketPath: string;
  /** Stop after this long with nothing to do; 0 = never. */
  idleMs: number;
  run: RunCommand;
  version: string;
  /** Commands run at once; more wait their turn. @default 2 */
  concurrency?: number;
}

export interface RunningServer {
  status(): ServerStatus;
  /** Stops taking clients and resolves once the commands running have ended; `cancel` stops them as Ctrl-C would. */
  close(options?: { cancel?: boolean }): Promise<void>;
  /** Resolves when the server has stopped: closed, idle, or asked to stop by a client. */
  closed: Promise<void>;
}

const RequestSchema: z.ZodType<ServerRequest> = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('run'),
    protocol: z.number(),
    argv: z.array(z.string()),
    env: z.record(z.string(), z.string()),
    cwd: z.string(),
    stdin: z.enum(['terminal', 'pipe']),
    stdoutTTY: z.boolean(),
    stderrTTY: z.boolean(),
  }),
  z.object({ kind: z.literal('status'), protocol: z.number() }),
  z.object({ kind: z.literal('stop'), protocol: z.number() }),
]);

/**
 * Listens on `socketPath` and runs each client's command line in this process, with the
 * client's arguments, environment, working directory, stdin and signals, writing its stdout
 * and stderr back. What the process keeps from one command to the next is code V8 has compiled
 * and the grammars it has loaded; every run opens its caches as a one-shot run does.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const limit = pLimit(options.concurrency ?? 2);
  const startedAt = new Date();
  let served = 0;
  let running = 0;
  let idle: NodeJS.Timeout | undefined;
  let closing: Promise<void> | undefined;
  let settle: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (settle = resolve));
  const idleWaiters: Array<() => void> = [];
  const connections = new Set<Connection>();

  const status = (): ServerStatus => ({
    pid: process.pid,
    version: options.version,
    socket: options.socketPath,
    startedAt: startedAt.toISOString(),
    served,
    active: running,
    idleMinutes: options.idleMs / 60_000,
    rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  });

  const armIdle = (): void => {
    clearTimeout(idle);
    if (running > 0) return;
    for (const wake of idleWaiters.splice(0)) wake();
    if (options.idleMs > 0 && !closing) idle = setTimeout(() => void close(), options.idleMs);
  };

  const close = (how: { cancel?: boolean } = {}): Promise<void> => {
    if (how.cancel) for (const connection of connections) connection.controller.abort();
    closing ??= (async () => {
      clearTimeout(idle);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await removeSocket(options.socketPath, identity);
      if (running > 0) await new Promise<void>((resolve) => idleWaiters.push(resolve));
      settle();
    })();
    return closing;
  };

  const runCommand = async (request: Extract<ServerRequest, { kind: 'run' }>, socket: Socket, connection: Connection): Promise<void> => {
    running += 1;
    clearTimeout(idle);
    connections.add(connection);
    try {
      const code = await limit(() => (connection.controller.signal.aborted && socket.destroyed ? Promise.resolve(130) : options.run(request.argv, connectionIo(request, socket, connection))));
      socket.end(encodeFrame(FRAME.exit, String(exitCodeAfterSignal(code, connection.stoppedBy))));
    } catch (error) {
      // `main` reports its own failures; this is a failure of the server around it.
      socket.write(encodeFrame(FRAME.stderr, `ctxloop: the server failed to run the command: ${String((error as Error)?.message ?? error).split('\n')[0]}\n`));
      socket.end(encodeFrame(FRAME.exit, '1'));
    } finally {
      connections.delete(connection);
      served += 1;
      running -= 1;
      armIdle();
    }
  };

  const server = createServer((socket) => {
    const connection: Connection = { controller: new AbortController(), stoppedBy: undefined, stdin: undefined, finished: false };
    socket.on('error', () => undefined);
    readFrames(socket, (type, payload) => {
      if (connection.request === undefined) {
        if (type !== FRAME.request) throw new Error('the first frame is not a request');
        const parsed = RequestSchema.safeParse(JSON.parse(payload.toString('utf8')));
        if (!parsed.success || parsed.data.protocol !== PROTOCOL_VERSION) throw new Error('not a request of this protocol');
        const request = parsed.data;
        connection.request = request;
        if (request.kind === 'run') {
          void runCommand(request, socket, connection).finally(() => (connection.finished = true));
        } else {
          socket.write(encodeFrame(FRAME.stdout, `${JSON.stringify(status())}\n`));
          socket.end(encodeFrame(FRAME.exit, '0'));
          if (request.kind === 'stop') void close();
        }
        return;
      }
      if (type === FRAME.stdin) connection.stdin?.push(Buffer.from(payload));
      else if (type === FRAME.stdinEnd) connection.stdin?.end();
      else if (type === FRAME.signal) {
        const name = payload.toString('utf8');
        connection.stoppedBy ??= isStopSignal(name) ? name : 'SIGINT';
        connection.controller.abort();
      }
    });
    // The client gone (killed, its terminal closed): its run stops as on Ctrl-C.
    socket.on('close', () => {
      if (!connection.finished) connection.controller.abort();
      connection.stdin?.end();
    });
  });
  server.on('error', () => undefined);

  try {
    await listen(server, options.socketPath);
  } catch (error) {
    if (isCtxloopError(error)) throw error;
    throw new CtxloopError('server_error', `cannot make the server's socket ${options.socketPath}: ${String((error as Error).message).split('\n')[0]}`, {
      cause: error,
      hint: 'set XDG_CACHE_HOME or CTXLOOP_CACHE to a directory of yours',
    });
  }
  const identity = await lstat(options.socketPath).then((s) => s.ino, () => undefined);
  if (process.platform !== 'win32') await chmod(options.socketPath, 0o600);
  armIdle();
  return { status, close, closed };
}

interface Connection {
  request?: ServerRequest;
  controller: AbortController;
  stoppedBy: StopSignal | undefined;
  stdin: ReturnType<typeof createStdin> | undefined;
  finished: boolean;
}

/** The client's process as `main` sees it. */
function connectionIo(request: Extract<ServerRequest, { kind: 'run' }>, socket: Socket, connection: Connection): Io {
  let stdin: InputStream = { isTTY: true, async *[Symbol.asyncIterator]() {} };
  if (request.stdin === 'pipe') {
    connection.stdin = createStdin(() => socket.write(encodeFrame(FRAME.needStdin, '')));
    connection.controller.signal.addEventListener('abort', () => connection.stdin?.end(), { once: true });
    stdin = connection.stdin.stream;
  }
  return {
    stdout: frameStream(socket, FRAME.stdout, request.stdoutTTY),
    stderr: frameStream(socket, FRAME.stderr, request.stderrTTY),
    stdin,
    env: request.env,
    cwd: request.cwd,
    signal: connection.controller.signal,
  };
}

/** One of the client's output streams, written as frames. A client gone is a reader gone (EPIPE). */
function frameStream(socket: Socket, type: number, isTTY: boolean): OutputStream {
  const stream: OutputStream = {
    isTTY,
    write(chunk, callback) {
      if (socket.destroyed || socket.writableEnded) {
        if (callback) queueMicrotask(() => callback(Object.assign(new Error('the client is gone'), { code: 'EPIPE' })));
        return false;
      }
      return socket.write(encodeFrame(type, chunk), callback);
    },
    on(event, listener) {
      socket.on(event, listener);
      return stream;
    },
    off(event, listener) {
      socket.off(event, listener);
      return stream;
    },
  };
  return stream;
}

/** The client's stdin, asked for when the command first reads it and fed by its frames. */
function createStdin(ask: () => void): { stream: InputStream; push(chunk: Buffer): void; end(): void } {
  const queue: Buffer[] = [];
  let ended = false;
  let asked = false;
  let wake: (() => void) | undefined;
  const wakeUp = (): void => {
    wake?.();
    wake = undefined;
  };
  return {
    stream: {
      isTTY: false,
      async *[Symbol.asyncIterator]() {
        if (!asked) {
          asked = true;
          ask();
        }
        try {
          for (;;) {
            const next = queue.shift();
            if (next) yield next;
            else if (ended) return;
            else await new Promise<void>((resolve) => (wake = resolve));
          }
        } finally {
          // The command stopped reading (done, or over its limit): what still comes is dropped.
          ended = true;
          queue.length = 0;
        }
      },
    },
    push(chunk) {
      if (ended) return;
      queue.push(chunk);
      wakeUp();
    },
    end() {
      ended = true;
      wakeUp();
    },
  };
}

/**
 * Listens on the socket path. A socket file left by a server that died is removed first; one a
 * live server answers on is not taken over.
 */
async function listen(server: Server, path: string): Promise<void> {
  await makeDirectory(dirname(path));
  // The directory holds the sockets: only this user may reach them.
  if (process.platform !== 'win32') await chmod(dirname(path), 0o700);
  try {
    await listenOnce(server, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (await isAnswering(path)) throw new CtxloopError('server_error', `a server is already running on ${path}`, { hint: 'ctxloop serve --status shows it; ctxloop serve --stop stops it' });
    const found = await lstat(path).catch(() => undefined);
    if (found && !found.isSocket()) throw new CtxloopError('server_error', `${path} is in the way of the server's socket and is not a socket: remove it`);
    await unlink(path).catch(() => undefined);
    await listenOnce(server, path);
  }
}

function listenOnce(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function isAnswering(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Removes the socket file if it is still this server's (another server may have taken the path since). */
async function removeSocket(path: string, identity: number | undefined): Promise<void> {
  if (process.platform === 'win32') return;
  const found = await lstat(path).catch(() => undefined);
  if (found?.isSocket() && found.ino === identity) await unlink(path).catch(() => undefined);
}
