import { CtxloopError } from '../core/errors.js';

/** The streams the CLI writes to: process streams in the binary, in-memory ones in tests. */
export interface OutputStream {
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  off(event: 'error', listener: (error: unknown) => void): unknown;
  isTTY?: boolean;
}

// Large texts go out a chunk at a time, each awaited, so at most one chunk sits in the buffer.
const CHUNK = 64 * 1024;

/**
 * Writes `text` and resolves once the stream has flushed all of it, so piped JSON over 64 kB is
 * never truncated (attw `write.ts`). Each chunk waits for its write callback, which is the
 * backpressure: nothing more is queued until the previous chunk has left. A reader that went
 * away (`| head`) ends the write quietly: there is nobody left to tell.
 */
export async function writeOutput(text: string, stream: OutputStream): Promise<void> {
  for (let offset = 0; offset < text.length; offset += CHUNK) {
    const open = await writeChunk(text.slice(offset, offset + CHUNK), stream);
    if (!open) return;
  }
}

/** Resolves true when written, false when the reader is gone; rejects on any other error. */
function writeChunk(piece: string, stream: OutputStream): Promise<boolean> {
  return new Promise((resolve, reject) => {
    // A failed write calls back first and emits 'error' after: this listener catches the
    // event so it never becomes an uncaught exception, and stays until it has fired.
    let failed = false;
    const onError = (): void => {
      if (failed) stream.off('error', onError);
    };
    stream.on('error', onError);
    stream.write(piece, (error) => {
      if (!error) {
        stream.off('error', onError);
        resolve(true);
        return;
      }
      failed = true;
      if (isClosedReader(error)) resolve(false);
      else reject(new CtxloopError('fs_error', `cannot write the output: ${error.message.split('\n')[0]}`, { cause: error }));
    });
  });
}

function isClosedReader(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}
