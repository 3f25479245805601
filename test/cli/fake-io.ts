import { Readable, Writable } from 'node:stream';
import type { RetrieveOptions } from '../../src/core/options.js';
import type { RetrieveResult } from '../../src/core/types.js';
import type { Io } from '../../src/cli/io.js';

/** A writable that keeps what it is given; `isTTY` as asked. */
export class Collector extends Writable {
  text = '';
  isTTY: boolean;
  constructor(tty = false, options: { highWaterMark?: number; delay?: number } = {}) {
    super({ highWaterMark: options.highWaterMark ?? 16 * 1024, decodeStrings: true });
    this.isTTY = tty;
    this.delay = options.delay ?? 0;
  }
  private delay: number;
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.text += chunk.toString('utf8');
    if (this.delay > 0) setTimeout(callback, this.delay);
    else callback();
  }
}

export interface FakeIo extends Io {
  stdout: Collector;
  stderr: Collector;
}

export interface FakeIoOptions {
  /** Piped stdin text; omitted = stdin is a terminal. */
  stdin?: string;
  stdoutTty?: boolean;
  stderrTty?: boolean;
  env?: Record<string, string | undefined>;
  cwd?: string;
  signal?: AbortSignal;
}

export function makeIo(options: FakeIoOptions = {}): FakeIo {
  const stdin = options.stdin === undefined ? Object.assign(Readable.from([]), { isTTY: true }) : Object.assign(Readable.from([Buffer.from(options.stdin)]), { isTTY: false });
  const io: FakeIo = {
    stdout: new Collector(options.stdoutTty ?? false),
    stderr: new Collector(options.stderrTty ?? false),
    stdin,
    env: options.env ?? {},
    cwd: options.cwd ?? '/work/repo',
  };
  if (options.signal) io.signal = options.signal;
  return io;
}

export function sampleResult(overrides: Partial<RetrieveResult> = {}): RetrieveResult {
  return {
    task: 'email verification links expire too early',
    root: '/work/repo',
    provider: 'offline',
    files: [
      {
        path: 'src/auth/verify.ts',
        score: 0.93,
        reason: 'defines verifyEmail, named by the task',
        regions: [
          { start: 40, end: 52, symbol: 'verifyEmail', content: 'export function verifyEmail(token: string) {\n  return check(token);\n}' },
          { start: 60, end: 60, content: 'export const TTL = 3600;' },
        ],
      },
      { path: 'src/auth/tokens.py', score: 0.71, reason: 'token expiry', regions: [{ start: 1, end: 9, symbol: 'expiry' }] },
    ],
    candidates: [{ path: 'src/db/schema.ts', score: 0.55, reason: 'mentions tokens' }],
    gaps: ['where is sendVerificationEmail defined?'],
    cycles: [{ query: { keywords: ['verifyemail'] }, candidates: 42, kept: 2, ms: 210 }],
    usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 },
    tokens: 1840,
    ...overrides,
  };
}

export interface FakeRun {
  (task: string, options?: RetrieveOptions): Promise<RetrieveResult>;
  calls: Array<{ task: string; options: RetrieveOptions }>;
}

/** A stand-in for `retrieve()`: records its calls, then runs `behaviour` (default: the sample result). */
export function fakeRun(behaviour: (task: string, options: RetrieveOptions) => Promise<RetrieveResult> | RetrieveResult = () => sampleResult()): FakeRun {
  const calls: FakeRun['calls'] = [];
  const run = async (task: string, options: RetrieveOptions = {}): Promise<RetrieveResult> => {
    calls.push({ task, options });
    return behaviour(task, options);
  };
  return Object.assign(run, { calls });
}
