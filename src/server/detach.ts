import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CtxloopError } from '../core/errors.js';
import { absoluteEnv, askServer } from './client.js';
import type { ServerStatus } from './protocol.js';

/** How long the server started may take to answer. */
const START_MS = 20_000;

export interface DetachOptions {
  socketPath: string;
  idleMinutes: number;
  env: Record<string, string | undefined>;
  cwd: string;
  signal?: AbortSignal;
}

/**
 * Starts `ctxloop serve` as a process of its own session (no terminal, its output dropped once
 * it answers) and returns its status; throws with its first error line when it exits first.
 */
export async function startDetached(options: DetachOptions): Promise<ServerStatus> {
  // This file and the binary's entry both sit two levels under the package, bundled or not.
  const bin = fileURLToPath(new URL('../cli/bin.js', import.meta.url));
  // Its working directory is the root, as a daemon's is, so it keeps no directory of the caller's
  // busy; paths in its environment are made absolute first (its socket directory among them).
  const env = absoluteEnv(options.env, options.cwd);
  const cwd = process.platform === 'win32' ? options.cwd : '/';
  const child = spawn(process.execPath, [bin, 'serve', '--idle', String(options.idleMinutes)], { cwd, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (errors += text));
  let exitCode: number | undefined;
  child.once('exit', (code) => (exitCode = code ?? 1));
  child.once('error', () => (exitCode = 1));
  const deadline = Date.now() + START_MS;
  let status: ServerStatus | undefined;
  while (!status && exitCode === undefined && Date.now() < deadline && !options.signal?.aborted) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    status = await askServer(options.socketPath, 'status', 500);
  }
  // From here the server writes nowhere: its stderr is closed, and it ignores the loss.
  child.stderr?.destroy();
  if (status) {
    child.unref();
    return status;
  }
  if (exitCode === undefined) child.kill('SIGTERM');
  const why = errors.split('\n').find((line) => line.startsWith('ctxloop: '));
  throw new CtxloopError('server_error', `the server did not start${why ? `: ${why.replace(/^ctxloop: (?:error: )?/, '')}` : exitCode === undefined ? ` within ${START_MS / 1000} s` : ` (exit ${exitCode})`}`);
}
