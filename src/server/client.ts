import { lstat } from 'node:fs/promises';
import { createConnection, type Socket } from 'node:net';
import { isAbsolute, resolve, sep } from 'node:path';
import { isOffValue } from '../core/env.js';
import { encodeFrame, FRAME, readFrames, PROTOCOL_VERSION, type ServerRequest, type ServerStatus } from './protocol.js';

// Loaded by the binary before anything else: node:net and the frames only, no zod, no search
// stack. A command that no server runs pays for this file and one failed connect.

/** How long a connect may take before the command runs in its own process instead. */
const CONNECT_MS = 1_000;

/** The process a client forwards: its own streams. */
export interface ClientProcess {
  argv: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; destroy?: () => void };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface Forwarded {
  /** The command's exit status; undefined when the server went away before it started (run it here). */
  code: Promise<number | undefined>;
  /** Passes a signal on: the run stops as it would in this process. */
  signal(name: string): void;
}

/**
 * A connection to the server on `path`, or undefined when none answers (no server, a stale
 * socket, a slow one) or the socket is not this user's: a command sends its environment, API
 * keys included, and another user's process is never sent it.
 */
export async function connectToServer(path: string, timeoutMs = CONNECT_MS): Promise<Socket | undefined> {
  if (process.platform !== 'win32') {
    const found = await lstat(path).catch(() => undefined);
    if (!found?.isSocket() || found.uid !== process.getuid?.()) return undefined;
  }
  return new Promise((resolve) => {
    const socket = createConnection(path);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(undefined);
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
    const fail = (): void => {
      clearTimeout(timer);
      resolve(undefined);
    };
    socket.once('error', fail);
  });
}

/**
 * The environment with the paths a run resolves against its working directory made absolute
 * against `cwd`: the process that reads them (a server) has another. `CTXLOOP_CACHE` (unless it
 * says off), `XDG_CACHE_HOME`, and `CTXLOOP_RG` when it is a path rather than a command name.
 */
export function absoluteEnv(env: Record<string, string | undefined>, cwd: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  const fix = (name: string, when: (value: string) => boolean): void => {
    const value = out[name]?.trim();
    if (value && !isAbsolute(value) && when(value)) out[name] = resolve(cwd, value);
  };
  fix('CTXLOOP_CACHE', (value) => !isOffValue(value));
  fix('XDG_CACHE_HOME', () => true);
  fix('CTXLOOP_RG', (value) => value.includes('/') || value.includes(sep));
  return out;
}

/** Sends the command line to the server and relays its output, stdin and exit status. */
export function forwardToServer(socket: Socket, proc: ClientProcess): Forwarded {
  const env = absoluteEnv(proc.env, proc.cwd);
  const request: ServerRequest = {
    kind: 'run',
    protocol: PROTOCOL_VERSION,
    argv: proc.argv,
    env,
    cwd: proc.cwd,
    stdin: proc.stdin.isTTY === true ? 'terminal' : 'pipe',
    stdoutTTY: (proc.stdout as { isTTY?: boolean }).isTTY === true,
    stderrTTY: (proc.stderr as { isTTY?: boolean }).isTTY === true,
  };
  let heard = false;
  let readingStdin = false;
  let stdoutGone = false;
  proc.stdout.on('error', () => {
    stdoutGone = true;
    socket.resume();
  });

  const code = new Promise<number | undefined>((resolve) => {
    let exit: number | undefined;
    readFrames(socket, (type, payload) => {
      heard = true;
      if (type === FRAME.stdout) {
        if (stdoutGone) return; // the reader left (`| head`): the rest is dropped, as a local run drops it
        if (!proc.stdout.write(payload)) {
          socket.pause();
          proc.stdout.once('drain', () => socket.resume());
        }
      } else if (type === FRAME.stderr) {
        proc.stderr.write(payload);
      } else if (type === FRAME.needStdin && !readingStdin) {
        readingStdin = true;
        proc.stdin.on('data', (chunk: Buffer | string) => socket.write(encodeFrame(FRAME.stdin, typeof chunk === 'string' ? Buffer.from(chunk) : chunk)));
        proc.stdin.once('end', () => socket.write(encodeFrame(FRAME.stdinEnd, '')));
        proc.stdin.once('error', () => socket.write(encodeFrame(FRAME.stdinEnd, '')));
      } else if (type === FRAME.exit) {
        exit = Number(payload.toString('utf8'));
      }
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      if (readingStdin) proc.stdin.destroy?.();
      if (exit !== undefined && Number.isInteger(exit)) resolve(exit);
      else if (!heard) resolve(undefined);
      else {
        proc.stderr.write('ctxloop: the server stopped during the run; run the command again (CTXLOOP_NO_SERVER=1 runs it without the server)\n');
        resolve(1);
      }
    });
  });
  socket.write(encodeFrame(FRAME.request, JSON.stringify(request)));
  return {
    code,
    signal: (name) => {
      if (!socket.destroyed) socket.write(encodeFrame(FRAME.signal, name));
    },
  };
}

/** Asks the server on `path` for its status (or to stop, answering its status first). Undefined when none answers. */
export async function askServer(path: string, kind: 'status' | 'stop', timeoutMs = CONNECT_MS): Promise<ServerStatus | undefined> {
  const socket = await connectToServer(path, timeoutMs);
  if (!socket) return undefined;
  return new Promise((resolve) => {
    let text = '';
    readFrames(socket, (type, payload) => {
      if (type === FRAME.stdout) text += payload.toString('utf8');
    });
    socket.on('error', () => undefined);
    socket.once('close', () => {
      try {
        resolve(JSON.parse(text) as ServerStatus);
      } catch {
        resolve(undefined);
      }
    });
    socket.write(encodeFrame(FRAME.request, JSON.stringify({ kind, protocol: PROTOCOL_VERSION } satisfies ServerRequest)));
  });
}
