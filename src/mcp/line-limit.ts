import { Transform, type Readable } from 'node:stream';

/** Bytes of an over-long line kept to read its request id from. */
const HEAD_BYTES = 4096;

/**
 * `input` as the MCP transport reads it, line by line, less each line over `limit` bytes: such a
 * line is dropped whole and `onDropped` is told, with the request id its first bytes name (null
 * when they name none). The SDK's transport gave up the whole connection on one such line, and
 * the calls running with it. A last line without a newline is passed on when `input` ends.
 */
export function limitLines(input: Readable, limit: number, onDropped: (id: string | number | null) => void): Transform {
  let held: Buffer[] = [];
  let heldBytes = 0;
  // set while a line past the limit is skipped: its first bytes, for its id
  let head: Buffer | undefined;
  const hold = (part: Buffer): void => {
    if (head) return;
    if (heldBytes + part.length <= limit) {
      held.push(part);
      heldBytes += part.length;
      return;
    }
    head = Buffer.concat([...held, part]).subarray(0, HEAD_BYTES);
    held = [];
    heldBytes = 0;
  };
  const endLine = (stream: Transform, newline: boolean): void => {
    if (head) onDropped(idOf(head.toString('utf8')));
    else if (heldBytes > 0 || newline) stream.push(Buffer.concat(newline ? [...held, NEWLINE] : held));
    held = [];
    heldBytes = 0;
    head = undefined;
  };
  const lines = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      for (let end = data.indexOf(0x0a); end >= 0; end = data.indexOf(0x0a)) {
        hold(data.subarray(0, end));
        endLine(this, true);
        data = data.subarray(end + 1);
      }
      if (data.length > 0) hold(data);
      done();
    },
    flush(done) {
      if (heldBytes > 0 || head) endLine(this, false);
      done();
    },
  });
  input.on('error', (error) => lines.destroy(error));
  return input.pipe(lines);
}

const NEWLINE = Buffer.from('\n');

/** The request id a JSON-RPC line's opening names (`{"jsonrpc":"2.0","id":7,…`), or null. */
function idOf(head: string): string | number | null {
  const found = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (!found) return null;
  try {
    return JSON.parse(found[1]!) as string | number;
  } catch {
    return null;
  }
}
