import type { Socket } from 'node:net';

/**
 * The server's wire format, one connection per command: frames of a type byte, a 4-byte
 * big-endian length and the payload. The client sends a request first, then stdin when asked
 * and any signal it receives; the server sends stdout, stderr and, last, the exit code.
 */
export const FRAME = {
  /** client → server: the request (JSON) */
  request: 0x72,
  /** client → server: a chunk of stdin, and its end */
  stdin: 0x69,
  stdinEnd: 0x49,
  /** client → server: a signal the client received (its name) */
  signal: 0x6b,
  /** server → client: the command reads stdin, send it */
  needStdin: 0x6e,
  /** server → client: output, and the exit code (JSON) */
  stdout: 0x6f,
  stderr: 0x65,
  exit: 0x78,
} as const;

/** Bumped when frames or requests change: a server of another version is not asked. */
export const PROTOCOL_VERSION = 1;

/** The longest frame read: a task passed with `--task` rides in the request. */
const MAX_FRAME = 64 * 1024 * 1024;

/** What the client asks (validated by the server: see `serve.ts`). Kept free of zod, which the client must not load. */
export type ServerRequest =
  | {
      kind: 'run';
      protocol: number;
      argv: string[];
      env: Record<string, string>;
      cwd: string;
      /** The client's stdin: a terminal is never read, a pipe (or file) is read when the command asks. */
      stdin: 'terminal' | 'pipe';
      stdoutTTY: boolean;
      stderrTTY: boolean;
    }
  | { kind: 'status'; protocol: number }
  | { kind: 'stop'; protocol: number };

/** What `status` answers (and `stop`, before it stops). */
export interface ServerStatus {
  pid: number;
  version: string;
  socket: string;
  startedAt: string;
  served: number;
  /** Commands running now. */
  active: number;
  idleMinutes: number;
  rssMb: number;
  peakRssMb: number;
}

export function encodeFrame(type: number, payload: string | Uint8Array): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const head = Buffer.allocUnsafe(5);
  head[0] = type;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/**
 * Feeds bytes in, calls `onFrame` for each whole frame. Throws on a frame over the limit (the
 * peer is broken or hostile: the connection is dropped).
 */
export function createFrameReader(onFrame: (type: number, payload: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (length > MAX_FRAME) throw new Error(`a frame of ${length} bytes is over the limit`);
      if (pending.length < 5 + length) break;
      const type = pending[0]!;
      const payload = pending.subarray(5, 5 + length);
      pending = pending.subarray(5 + length);
      onFrame(type, payload);
    }
  };
}

/** Reads `socket`'s frames into `onFrame`; a broken or foreign peer (a bad frame, a throw) is dropped. */
export function readFrames(socket: Socket, onFrame: (type: number, payload: Buffer) => void): void {
  const read = createFrameReader(onFrame);
  socket.on('data', (chunk: Buffer) => {
    try {
      read(chunk);
    } catch {
      socket.destroy();
    }
  });
}
