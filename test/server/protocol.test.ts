import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { readAll } from '../../src/cli/task.js';
import { writeOutput } from '../../src/cli/write.js';
import { askServer, connectToServer, forwardToServer } from '../../src/server/client.js';
import { createFrameReader, encodeFrame, FRAME } from '../../src/server/protocol.js';
import { startServer, type RunCommand } from '../../src/server/serve.js';

describe('frames', () => {
  it('come out whole however the bytes are cut, and an oversized one is refused', () => {
    const got: Array<[number, string]> = [];
    const read = createFrameReader((type, payload) => got.push([type, payload.toString('utf8')]));
    const bytes = Buffer.concat([encodeFrame(FRAME.stdout, 'héllo'), encodeFrame(FRAME.stderr, ''), encodeFrame(FRAME.exit, '0')]);
    for (let i = 0; i < bytes.length; i += 3) read(bytes.subarray(i, i + 3));
    expect(got).toEqual([
      [FRAME.stdout, 'héllo'],
      [FRAME.stderr, ''],
      [FRAME.exit, '0'],
    ]);
    const huge = Buffer.alloc(5);
    huge[0] = FRAME.stdin;
    huge.writeUInt32BE(0xffffffff, 1);
    expect(() => read(huge)).toThrow(/over the limit/);
  });
});

describe('a server in this process', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const socketIn = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'ctxloop-proto-'));
    dirs.push(dir);
    return join(dir, 'server', 'test.sock');
  };

  /** The client's side of one command: its streams in memory. */
  async function send(path: string, argv: string[], input?: string): Promise<{ code: number | undefined; stdout: string; stderr: string }> {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.setEncoding('utf8').on('data', (t: string) => (out += t));
    stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
    if (input !== undefined) stdin.end(input);
    const socket = await connectToServer(path);
    if (!socket) throw new Error('no server');
    const { code } = forwardToServer(socket, { argv, env: { WHO: 'client' }, cwd: '/client/dir', stdin, stdout, stderr });
    return { code: await code, stdout: out, stderr: err };
  }

  it("runs each command with the client's argv, env, cwd and stdin, and stops when idle", async () => {
    const path = socketIn();
    const run: RunCommand = async (argv, io) => {
      const text = argv[0] === 'read' ? await readAll(io.stdin!) : '';
      await writeOutput(`${argv.join(' ')}|${io.env.WHO}|${io.cwd}|${text}\n`, io.stdout);
      await writeOutput('progress\n', io.stderr);
      return argv.length;
    };
    const server = await startServer({ socketPath: path, idleMs: 400, run, version: 'test' });
    expect(await send(path, ['read', 'x'], 'the task')).toEqual({ code: 2, stdout: 'read x|client|/client/dir|the task\n', stderr: 'progress\n' });
    // stdin is asked for only by a command that reads it: one that does not never waits on it
    expect(await send(path, ['a', 'b', 'c'])).toEqual({ code: 3, stdout: 'a b c|client|/client/dir|\n', stderr: 'progress\n' });
    expect((await askServer(path, 'status'))?.served).toBe(2);
    await server.closed; // 400 ms with nothing to do
    expect(await askServer(path, 'status')).toBeUndefined();
  });

  it('stops a command whose client went away, and reports a failure around the command as exit 1', async () => {
    const path = socketIn();
    let sawAbort = false;
    const run: RunCommand = async (argv, io) => {
      if (argv[0] === 'throw') throw new Error('boom\nsecond line');
      await new Promise<void>((resolve) => io.signal!.addEventListener('abort', () => resolve(), { once: true }));
      sawAbort = true;
      return 130;
    };
    const server = await startServer({ socketPath: path, idleMs: 0, run, version: 'test' });
    const failed = await send(path, ['throw']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe('ctxloop: the server failed to run the command: boom\n');
    const socket = await connectToServer(path);
    const stdin = new PassThrough();
    forwardToServer(socket!, { argv: ['wait'], env: {}, cwd: '/', stdin, stdout: new PassThrough(), stderr: new PassThrough() });
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket!.destroy();
    for (let i = 0; i < 50 && !sawAbort; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sawAbort).toBe(true);
    await server.close();
  });
});
