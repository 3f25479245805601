import type { EvalRecord } from './types.js';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface Progress {
  /** After each task: `done` of `total` finished, `record` the latest. */
  update(record: EvalRecord, done: number, total: number): void;
  /** Ends the line on a TTY. */
  finish(): void;
}

export interface ProgressOptions {
  /** Non-TTY: at least this long between lines (ms). @default 15000 */
  interval?: number;
  now?: () => number;
}

/**
 * A one-line bar redrawn in place on a TTY (`[####....] 37/99 id acc@5 61.0`), plain lines now
 * and then otherwise (every tenth of the run or `interval`, and the last task). Failures always
 * get their own line. Only stderr: stdout carries the report alone.
 */
export function createProgress(stream: ProgressStream, options: ProgressOptions = {}): Progress {
  const interval = options.interval ?? 15_000;
  const now = options.now ?? Date.now;
  let acc5Sum = 0;
  let lastLine = now();
  let lastDone = 0;
  let drawn = false;
  return {
    update(record, done, total) {
      acc5Sum += record.metrics.acc5;
      const line = renderProgress(record.id, done, total, (100 * acc5Sum) / done, stream.isTTY ? (stream.columns ?? 80) : undefined);
      if (record.error !== undefined) {
        stream.write(`${drawn ? '\r\x1b[2K' : ''}ctxloop: ${record.id} failed: ${record.error}\n`);
        drawn = false;
      }
      if (stream.isTTY) {
        stream.write(`\r\x1b[2K${line}`);
        drawn = true;
        return;
      }
      const step = Math.max(1, Math.ceil(total / 10));
      if (done === total || done - lastDone >= step || now() - lastLine >= interval) {
        stream.write(`${line}\n`);
        lastLine = now();
        lastDone = done;
      }
    },
    finish() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}

/** One progress line; with `columns`, the id is cut so the line fits. */
export function renderProgress(id: string, done: number, total: number, acc5: number, columns?: number): string {
  const width = 20;
  const filled = total === 0 ? width : Math.round((width * done) / total);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
  const counts = `${String(done).padStart(String(total).length)}/${total}`;
  const score = `acc@5 ${acc5.toFixed(1)}`;
  let name = id;
  if (columns !== undefined) {
    const room = columns - 1 - (bar.length + counts.length + score.length + 3);
    if (name.length > room) name = room > 1 ? `${name.slice(0, room - 1)}…` : '';
  }
  return `${bar} ${counts} ${name} ${score}`;
}
