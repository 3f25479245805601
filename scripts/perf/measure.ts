/**
 * Runs one command for `bench:perf` and measures it: wall time from spawn to exit, stdout bytes
 * (read and thrown away, so the command pays for its output as it would in a pipe), and for Node
 * commands the peak resident set size, written by a preload at exit (`rss-preload.mjs`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface Measured {
  ms: number;
  /** Peak RSS in MB (Node commands only). */
  rssMb?: number;
  stdoutBytes: number;
  code: number | null;
  stderr: string;
}

const PRELOAD = pathToFileURL(fileURLToPath(new URL('./rss-preload.mjs', import.meta.url))).href;

export interface RunOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  stdin?: string;
}

export function runMeasured(command: string, args: readonly string[], options: RunOptions): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, [...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdoutBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdoutBytes += chunk.length));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 16_384) stderr += chunk.toString('utf8');
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: performance.now() - started, stdoutBytes, code, stderr }));
  });
}

/** Runs a Node script with the RSS preload and reads the peak it reported. */
export async function runNodeMeasured(script: string, args: readonly string[], options: RunOptions): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'ctxloop-bench-rss-'));
  const file = join(dir, 'rss');
  try {
    const measured = await runMeasured(process.execPath, ['--import', PRELOAD, script, ...args], { ...options, env: { ...(options.env ?? process.env), CTXLOOP_BENCH_RSS_FILE: file } });
    try {
      measured.rssMb = Number(readFileSync(file, 'utf8')) / 1024;
    } catch {
      // the process died before its exit hook: no figure
    }
    return measured;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Served {
  /** One `ctxloop` command line through the server, timed from spawning the client to its exit. */
  run(args: readonly string[]): Promise<Measured>;
  /** From `serve --status`: the server's peak RSS so far, in MB, and the commands it has run. */
  status(): Promise<{ peakRssMb: number; served: number }>;
  close(): Promise<void>;
}

/**
 * Starts `ctxloop serve` (the binary `bin`) with its socket under `dir`, and returns once it
 * answers. Commands run through it as a user's would: a client process per command.
 */
export async function startServed(bin: string, dir: string, options: RunOptions): Promise<Served> {
  const env: Record<string, string | undefined> = { ...(options.env ?? process.env), XDG_CACHE_HOME: dir };
  delete env.CTXLOOP_CACHE;
  delete env.CTXLOOP_NO_SERVER;
  const child = spawn(process.execPath, [bin, 'serve', '--idle', '0', '--quiet'], { cwd: options.cwd, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const status = async (): Promise<{ running: boolean; peakRssMb?: number; served?: number }> => {
    const measured = await new Promise<string>((resolve) => {
      const ask = spawn(process.execPath, [bin, 'serve', '--status', '--json'], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      ask.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
      ask.once('close', () => resolve(out));
    });
    try {
      return JSON.parse(measured) as { running: boolean; peakRssMb?: number; served?: number };
    } catch {
      return { running: false };
    }
  };
  let gone = false;
  void exited.then(() => (gone = true));
  for (const deadline = Date.now() + 30_000; !(await status()).running; ) {
    if (gone || Date.now() > deadline) throw new Error('ctxloop serve did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    async run(args) {
      if (gone) throw new Error('the server exited');
      return runMeasured(process.execPath, [bin, ...args], { ...options, env });
    },
    async status() {
      const now = await status();
      return { peakRssMb: now.peakRssMb ?? Number.NaN, served: now.served ?? 0 };
    },
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
