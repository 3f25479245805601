/**
 * The tokenizer on a thread of its own: its tables load there (about 130 ms of work that a cold
 * run would otherwise do on the thread that parses ripgrep's output and the syntax trees), and a
 * count is asked for synchronously: the text is posted, and this thread waits on a shared flag
 * until the count is written back. One thread per process, made on first use, never keeping the
 * process alive. The same CommonJS build of gpt-tokenizer counts as `loadNow` in `lazy-tokens.ts`.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Tokenizer } from '../core/deps.js';
import { countInPieces } from './count-with.js';

/** Runs in the thread: loads the tokenizer, then answers each `{ text }` through the shared array. */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const shared = new Int32Array(workerData.shared);
let countTokens;
try { ({ countTokens } = require(workerData.module)); } catch {}
const AS_TEXT = { disallowedSpecial: new Set() };
parentPort.on('message', (text) => {
  let count = -1;
  try { if (countTokens) count = text.length === 0 ? 0 : countTokens(text, AS_TEXT); } catch {}
  shared[1] = count;
  Atomics.store(shared, 0, 1);
  Atomics.notify(shared, 0);
});
`;

/** A count not back within this long means the thread is gone: the caller counts itself. */
const WAIT_MS = 10_000;

let thread: { worker: Worker; shared: Int32Array } | undefined | null;

/** Starts the thread (once a process); null when threads cannot be made here. */
function startThread(): { worker: Worker; shared: Int32Array } | null {
  if (thread !== undefined) return thread;
  try {
    const module = createRequire(import.meta.url).resolve('gpt-tokenizer/cjs/encoding/o200k_base');
    const buffer = new SharedArrayBuffer(8);
    const worker = new Worker(THREAD, { eval: true, workerData: { module, shared: buffer } });
    worker.unref();
    worker.on('error', () => (thread = null));
    worker.on('exit', () => (thread = null));
    thread = { worker, shared: new Int32Array(buffer) };
  } catch {
    thread = null;
  }
  return thread;
}

/**
 * A tokenizer counting on the thread (started now, so its tables load while this thread works),
 * or undefined when no thread can be made. A count the thread cannot give (it died, or a text it
 * refused) is asked of `fallback`.
 */
export function startTokenThread(fallback: () => Tokenizer): Tokenizer | undefined {
  if (!startThread()) return undefined;
  const countOnThread = (text: string): number => {
    const current = thread;
    if (!current) return fallback().count(text);
    Atomics.store(current.shared, 0, 0);
    current.worker.postMessage(text);
    if (Atomics.wait(current.shared, 0, 0, WAIT_MS) === 'timed-out') return fallback().count(text);
    const count = current.shared[1]!;
    return count >= 0 ? count : fallback().count(text);
  };
  // in pieces, as every tokenizer here counts (`tokenizerOf`): the thread counts what it is sent whole
  return { count: (text) => countInPieces(text, countOnThread) };
}
