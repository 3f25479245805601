import { realpath, stat } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { deserializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CtxloopError, shownArgument, UsageError } from '../core/errors.js';
import type { RetrieveOptions } from '../core/options.js';
import { reportFailure } from '../cli/fail.js';
import { readVersion } from '../cli/help.js';
import { useColor, type Io } from '../cli/io.js';
import { createReporter } from '../cli/progress.js';
import { writeOutput } from '../cli/write.js';
import { EXIT } from '../cli/exit-codes.js';
import { createRetriever } from '../orchestrator/retriever.js';
import { labelRoots } from '../orchestrator/roots.js';
import { MCP_USAGE, parseMcpArgs } from './args.js';
import { createMcpServer } from './server.js';
import { limitLines } from './line-limit.js';

/** The longest request line read (the SDK's own bound): a longer one is refused alone. */
const MAX_REQUEST_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/**
 * `ctxloop mcp`: serves the tools on stdio until stdin closes (or a signal), then writes the
 * caches and returns 0 (130 when a signal stopped it). stdout belongs to the protocol from the
 * first byte: help is the only other thing ever written there, and only when asked for.
 */
export async function mcpCommand(argv: string[], io: Io): Promise<number> {
  const view = { stdout: io.stdout, stderr: io.stderr, format: 'md' as const, verbose: argv.includes('--verbose'), color: useColor(io.stderr, io.env, false) };
  try {
    const args = parseMcpArgs(argv, io.cwd);
    if (args.help) {
      await writeOutput(MCP_USAGE, io.stdout);
      return 0;
    }
    const served = await checkRoots(args.config);
    const { stdin, stdout } = io;
    if (!(stdin instanceof Readable) || !(stdout instanceof Writable)) throw new CtxloopError('internal', 'ctxloop mcp needs the process stdin and stdout');
    const reporter = createReporter({ stderr: io.stderr, quiet: args.quiet, verbose: args.verbose, color: view.color });
    const settings = { ...args.config, logger: reporter.logger, env: io.env };
    const retriever = createRetriever(settings);
    const confineTo = args.confine ? await Promise.all(served.map((path) => realpath(path))) : undefined;
    const server = createMcpServer({ retriever, cwd: io.cwd, version: await readVersion(), logger: reporter.logger, settings, ...(confineTo ? { confineTo } : {}) });
    // A request line over the limit is refused alone, and the server serves on: the SDK's
    // transport gave up the whole connection on one, and the calls running with it.
    const input = limitLines(stdin, MAX_REQUEST_BYTES, (id) => {
      reporter.logger.warn(`mcp: a request line over ${MAX_REQUEST_BYTES / 1024 / 1024} MB is not read${id === null ? '' : ` (request ${JSON.stringify(id)})`}`);
      transport.send({ jsonrpc: '2.0', id, error: { code: -32600, message: `Invalid Request: a request line over ${MAX_REQUEST_BYTES / 1024 / 1024} MB is not read` } } as unknown as JSONRPCMessage).catch(() => undefined);
    });
    // lines reach it whole and within the limit; room for a few of them at once
    const transport = new StdioServerTransport(input, stdout, { maxBufferSize: 4 * MAX_REQUEST_BYTES });
    // The transport may still close on its own, stdin open (a failure of its own): waiting for
    // stdin then would leave the process to exit 13 with nothing said; the reason is said instead.
    let broken: Error | undefined;
    let gone = false;
    const invalid = watchInvalidRequests(input);
    // The transport reads only lines ended by a newline: a last request without one (`printf '%s'`,
    // `echo -n`) sat in its buffer unanswered, and the server exited 0. It is read as the transport reads a line.
    const readLast = (): void => {
      const line = invalid.flush();
      if (line === undefined) return;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (error) {
        transport.onerror?.(error as Error);
        return;
      }
      transport.onmessage?.(message);
    };
    const closed = new Promise<void>((done) => {
      input.once('end', () => {
        readLast();
        done();
      });
      input.once('close', done);
      io.signal?.addEventListener('abort', () => done(), { once: true });
      transport.onerror = (error) => {
        // A line that is not JSON, or not JSON-RPC: the transport drops it and reads on. The
        // client is told (JSON-RPC's parse error, id null), or it would wait for an answer for ever.
        // A request whose id is readable (its params are what is wrong: a progress token of
        // 1.5) is answered under that id, as JSON-RPC asks; the client waits for it.
        const bad = error instanceof SyntaxError ? { code: -32700, message: 'Parse error: a request line is not JSON' } : error.name === 'ZodError' ? { code: -32600, message: 'Invalid Request: a line is not a JSON-RPC message' } : undefined;
        if (!bad) {
          broken ??= error;
          return;
        }
        const id = bad.code === -32600 ? invalid.next() : null;
        reporter.logger.warn(`mcp: ${bad.message}${id === null ? '' : ` (request ${JSON.stringify(id)})`}`);
        transport.send({ jsonrpc: '2.0', id, error: bad } as unknown as JSONRPCMessage).catch(() => undefined);
      };
      transport.onclose = () => {
        gone = true;
        invalid.stop();
        done();
      };
    });
    await server.connect(transport);
    const calls = trackRequests(transport, stdout);
    reporter.logger.info(`ctxloop mcp: serving retrieve_context and locate_bug on stdio (${describeRoots(args.config)})`);
    await closed;
    // stdin ended with calls still running (a client that sends its last request and closes
    // its end, `printf … | ctxloop mcp`): they are answered before the server closes, or the
    // client would get no reply and the exit code would say all went well. SIGINT does not wait.
    if (broken && gone) {
      // The transport gave up the connection (a failure of its own): the SDK stops the calls
      // still running and answers none of them, and waiting for them left the process to exit 13
      // in silence. Each is answered here with the reason, then the failure is reported.
      for (const id of calls.open()) writeError(stdout, id, `the MCP connection closed before this call was answered: ${broken.message}`);
    } else if (!io.signal?.aborted && calls.pending() > 0) {
      reporter.logger.info(`ctxloop mcp: stdin closed; answering ${calls.pending()} call(s) still running`);
      await calls.settled(io.signal);
    }
    await server.close();
    invalid.stop();
    // stdin, still piped into the line filter, would hold the process open
    stdin.unpipe(input);
    if (stdin.listenerCount('data') === 0) stdin.pause();
    await retriever.close();
    if (broken && stdin.readable && !stdin.readableEnded) throw new CtxloopError('internal', `the MCP connection closed: ${broken.message}`);
    // Stopped by a signal (a host closing the server, Ctrl-C): said in the exit status, as every
    // command says it (128 + the signal's number, `bin.ts`), so a supervisor sees no clean end.
    return io.signal?.aborted ? EXIT.interrupted : EXIT.ok;
  } catch (error) {
    return reportFailure(error, view);
  }
}

/**
 * The ids of the lines the transport will refuse as not JSON-RPC, in order (null where none can
 * be read): the same lines read beside the transport, its listener first, so each id is queued
 * before the transport reports that line. Lines past the limit never reach either (`limitLines`).
 */
function watchInvalidRequests(stdin: Readable): { next: () => string | number | null; flush: () => string | undefined; stop: () => void } {
  const ids: Array<string | number | null> = [];
  let partial: Buffer[] = [];
  let partialBytes = 0;
  const readLine = (line: string): void => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return; // not JSON: a parse error, which has no id
    }
    if (JSONRPCMessageSchema.safeParse(message).success) return;
    const id = typeof message === 'object' && message !== null && !Array.isArray(message) ? (message as { id?: unknown }).id : undefined;
    ids.push(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null);
  };
  const onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let end = data.indexOf(0x0a); end >= 0; end = data.indexOf(0x0a)) {
      const line = Buffer.concat([...partial, data.subarray(0, end)]).toString('utf8').replace(/\r$/, '');
      partial = [];
      partialBytes = 0;
      data = data.subarray(end + 1);
      readLine(line);
    }
    partialBytes += data.length;
    if (partialBytes > STDIO_DEFAULT_MAX_BUFFER_SIZE) {
      partial = [];
      partialBytes = 0;
    } else if (data.length > 0) partial.push(data);
  };
  stdin.prependListener('data', onData);
  return {
    next: () => ids.shift() ?? null,
    /** The last line when stdin ended without a newline after it (undefined when blank), its id queued as any line's. */
    flush: () => {
      const line = Buffer.concat(partial).toString('utf8').trim();
      partial = [];
      partialBytes = 0;
      if (line === '') return undefined;
      readLine(line);
      return line;
    },
    // as the transport does on closing: stdin paused once nothing reads it, or it holds the process open
    stop: () => {
      stdin.off('data', onData);
      if (stdin.listenerCount('data') === 0) stdin.pause();
    },
  };
}

/**
 * Requests the server has read and not yet answered, counted at the transport: a request in,
 * its response (result or error) out. A request the client cancels gets no response, so its
 * cancellation settles it; a response that cannot be written (stdout closed) settles it too.
 */
function trackRequests(transport: StdioServerTransport, stdout: Writable): { pending: () => number; open: () => Array<string | number>; settled: (signal?: AbortSignal) => Promise<void> } {
  const open = new Set<string | number>();
  const waiters = new Set<() => void>();
  // stdout whose reader is gone (EPIPE): process.stdout says so by an 'error' event only (it is
  // neither destroyed nor errored), and the SDK's send waits for a 'drain' that never comes, so
  // the answers waiting on it never settled and the process exited 13 in silence
  let failed = false;
  const failure = new Promise<void>((done) => stdout.once('error', () => ((failed = true), done())));
  const settle = (id: unknown): void => {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    open.delete(id);
    if (open.size === 0) for (const done of waiters) done();
  };
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    const m = message as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) open.add(m.id);
    if (m.method === 'notifications/cancelled') settle(m.params?.requestId);
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    const m = message as { id?: unknown; method?: unknown };
    const isResponse = m.method === undefined;
    try {
      await Promise.race([send(oneLineError(message)), failure]);
    } finally {
      if (isResponse) settle(m.id);
    }
  };
  return {
    pending: () => open.size,
    open: () => [...open],
    settled: (signal) =>
      new Promise<void>((done) => {
        if (open.size === 0 || signal?.aborted || stdout.destroyed || failed) return done();
        waiters.add(done);
        signal?.addEventListener('abort', () => done(), { once: true });
        stdout.once('close', () => done());
        void failure.then(done);
      }),
  };
}

/** A JSON-RPC error for request `id`, written straight to stdout: for when the transport is gone. */
function writeError(stdout: Writable, id: string | number, message: string): void {
  if (stdout.destroyed || !stdout.writable) return;
  stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message } })}\n`);
}

/**
 * A request the SDK's own schema refused (`"arguments": null`) was answered -32603 with the
 * validation issues as a multi-line JSON dump: it goes out as -32602, invalid params, in one line
 * naming the field.
 */
function oneLineError(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { code?: unknown; message?: unknown } }).error;
  if (!error || typeof error.message !== 'string' || !error.message.startsWith('[')) return message;
  let issues: unknown;
  try {
    issues = JSON.parse(error.message);
  } catch {
    return message;
  }
  const first = Array.isArray(issues) ? (issues[0] as { path?: unknown; message?: unknown } | undefined) : undefined;
  if (!first || typeof first.message !== 'string') return message;
  const where = Array.isArray(first.path) && first.path.length > 0 ? `${first.path.map(String).join('.')}: ` : '';
  return { ...message, error: { ...error, code: -32602, message: `Invalid params: ${where}${first.message}` } } as JSONRPCMessage;
}

/** The default roots exist and their labels are sound, before a client connects; their paths. */
async function checkRoots(config: RetrieveOptions): Promise<string[]> {
  const roots = labelRoots(config) ?? [{ path: config.root ?? '.' }];
  for (const root of roots) {
    const info = await stat(root.path).catch(() => undefined);
    if (!info?.isDirectory()) throw new UsageError('root_not_found', `root not found: ${shownArgument(root.path)}`, { hint: 'pass an existing directory with --root' });
  }
  return roots.map((root) => root.path);
}

function describeRoots(config: RetrieveOptions): string {
  if (config.roots) return `roots ${labelRoots(config)!.map((r) => `${r.label}=${r.path}`).join(', ')}`;
  return `root ${config.root}`;
}
