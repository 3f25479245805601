import { Transform, type Readable } from 'node:stream';

/** Bytes of an over-long line kept to read its request id from. */
const HEAD_BYTES = 4096;

/**
 * `input` as the MCP transport reads it, line by line, less each line over `limit` bytes: such a
 * line is dropped whole and `onDropped` is told, with the request id its first or last bytes name
 * (null when they name none). The SDK's transport gave up the whole connection on one such line, and
 * the calls running with it. A last line without a newline is passed on when `input` ends.
 */
export function limitLines(input: Readable, limit: number, onDropped: (id: string | number | null) => void): Transform {
  let held: Buffer[] = [];
  let heldBytes = 0;
  // set while a line past the limit is skipped: its first and last bytes, for its id
  let head: Buffer | undefined;
  let tail = Buffer.alloc(0);
  const hold = (part: Buffer): void => {
    if (head) {
      // only the bytes that can stay: a part is up to a chunk, and an 11 MB line is many of them
      tail = Buffer.concat([tail, part.subarray(-HEAD_BYTES)]).subarray(-HEAD_BYTES);
      return;
    }
    if (heldBytes + part.length <= limit) {
      held.push(part);
      heldBytes += part.length;
      return;
    }
    const line = Buffer.concat([...held, part]);
    head = line.subarray(0, HEAD_BYTES);
    tail = line.subarray(-HEAD_BYTES);
    held = [];
    heldBytes = 0;
  };
  const endLine = (stream: Transform, newline: boolean): void => {
    if (head) onDropped(idOf(head.toString('utf8'), tail.toString('utf8')));
    else if (heldBytes > 0 || newline) stream.push(Buffer.concat(newline ? [...held, NEWLINE] : held));
    held = [];
    heldBytes = 0;
    head = undefined;
    tail = Buffer.alloc(0);
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

/** A request id: a whole number, or a string. */
const ID = String.raw`"id"\s*:\s*(-?\d{1,15}(?=\s*[,}])|"(?:[^"\\]|\\.){0,200}")`;
const ID_AT_OPENING = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?` + ID);
const ID_AT_CLOSE = new RegExp(String.raw`[,{]\s*` + ID + String.raw`\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*\r?$`);

/**
 * The request id a JSON-RPC line names at its opening (`{"jsonrpc":"2.0","id":7,…`) or at its
 * close (`…,"id":7}`, as the SDK's client writes it), or null. A number counts whole only.
 */
function idOf(head: string, tail: string): string | number | null {
  const found = ID_AT_OPENING.exec(head) ?? ID_AT_CLOSE.exec(tail);
  if (!found) return null;
  try {
    return JSON.parse(found[1]!) as string | number;
  } catch {
    return null;
  }
}
