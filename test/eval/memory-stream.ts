/** An in-memory stdout/stderr for evalCommand: collects what was written. */
export interface MemoryStream {
  text: string;
  isTTY?: boolean;
  columns?: number;
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  on(): MemoryStream;
  off(): MemoryStream;
}

export function memoryStream(isTTY = false): MemoryStream {
  const stream: MemoryStream = {
    text: '',
    isTTY,
    columns: 60,
    write(chunk, callback) {
      stream.text += chunk;
      callback?.();
      return true;
    },
    on: () => stream,
    off: () => stream,
  };
  return stream;
}
