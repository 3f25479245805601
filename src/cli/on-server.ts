import { isOffValue, readEnv } from '../core/env.js';
import { connectToServer, forwardToServer, type ClientProcess } from '../server/client.js';
import { serverDir, serverSocketPath, socketPathProblem } from '../server/socket-path.js';

/** The commands a server runs for the binary: the short ones, one retrieval each. */
const SERVED: ReadonlySet<string> = new Set(['retrieve', 'locate', 'trace']);

/**
 * Runs the command on a server of this build (`ctxloop serve`) when one is listening, and
 * returns its exit status; undefined when it is to run here: another command, no server,
 * `CTXLOOP_NO_SERVER` set, a signal already received, or the server gone before it started.
 * `onForward` gets the function that passes a signal on.
 */
export async function runOnServer(proc: ClientProcess, signal: AbortSignal, onForward: (passOn: (signal: string) => void) => void): Promise<number | undefined> {
  if (!SERVED.has(proc.argv[0] ?? '')) return undefined;
  try {
    const off = readEnv(proc.env, 'CTXLOOP_NO_SERVER');
    if (off !== undefined && !isOffValue(off)) return undefined;
    const dir = serverDir(proc.env, proc.cwd);
    if (dir === null) return undefined;
    const path = await serverSocketPath(dir);
    if (socketPathProblem(path) !== undefined) return undefined;
    const socket = await connectToServer(path);
    if (!socket) return undefined;
    if (signal.aborted) {
      socket.destroy();
      return undefined;
    }
    const forwarded = forwardToServer(socket, proc);
    onForward(forwarded.signal);
    return await forwarded.code;
  } catch {
    return undefined; // anything odd about the server: the command runs here, as it always could
  }
}
