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

export interface ResidentRun {
  ms: number;
  files: number;
  /** The process's peak RSS so far, in MB. */
  rssMb: number;
}

export interface Resident {
  /** One retrieval with an empty cache in `cache`, timed inside the process. */
  run(request: { root: string; task: string; cache: string }): Promise<ResidentRun>;
  close(): Promise<void>;
}

const RESIDENT = fileURLToPath(new URL('./resident.mjs', import.meta.url));

/** Starts the long-lived library process of `resident.mjs` (requests answered one at a time, in order). */
export function startResident(options: RunOptions): Resident {
  const child = spawn(process.execPath, [RESIDENT], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<{ resolve: (run: ResidentRun) => void; reject: (error: Error) => void }> = [];
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl !== -1; nl = buffered.indexOf('\n')) {
      const answer = JSON.parse(buffered.slice(0, nl)) as ResidentRun & { error?: string };
      buffered = buffered.slice(nl + 1);
      const next = waiting.shift();
      if (answer.error !== undefined) next?.reject(new Error(`resident run failed: ${answer.error}`));
      else next?.resolve(answer);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  void exited.then(() => {
    for (const w of waiting.splice(0)) w.reject(new Error('the resident process exited'));
  });
  return {
    run(request) {
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(`${JSON.stringify(request)}\n`);
      });
    },
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}
