import type { OutputStream } from './write.js';

/** What the CLI reads from. `isTTY` is true only for a terminal. */
export interface InputStream extends AsyncIterable<string | Uint8Array> {
  isTTY?: boolean;
}

/**
 * Everything the CLI touches outside its arguments. The binary passes the process's own; tests
 * pass in-memory streams, so `main` runs without patching `process`.
 */
export interface Io {
  stdout: OutputStream;
  stderr: OutputStream;
  /** Piped input (the task when neither `--task` nor `--task-file` is given). Absent = a terminal. */
  stdin?: InputStream;
  env: Record<string, string | undefined>;
  /** Relative paths in flags resolve against this. */
  cwd: string;
  /** Aborted on SIGINT by the binary; passed to the run. */
  signal?: AbortSignal;
}

/**
 * Colour only on a terminal, and never with NO_COLOR (any non-empty value), TERM=dumb or
 * `--no-color` (citty `src/_color.ts`).
 */
export function useColor(stream: OutputStream, env: Io['env'], noColorFlag: boolean): boolean {
  if (noColorFlag || stream.isTTY !== true) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}

export interface Paint {
  red(text: string): string;
  yellow(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
}

const wrap = (open: number, close: number) => (text: string) => `\u001B[${open}m${text}\u001B[${close}m`;

export function createPaint(enabled: boolean): Paint {
  if (!enabled) {
    const plain = (text: string): string => text;
    return { red: plain, yellow: plain, dim: plain, bold: plain };
  }
  return { red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}
