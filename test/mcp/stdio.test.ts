/**
 * `ctxloop mcp` end to end: the built binary as a child process, driven by the MCP SDK's own
 * client over a real stdio transport. Needs `npm run build` first (`npm test` does it).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');

const FILES = {
  'src/auth/verify.ts': 'export function verifyEmail(address: string): boolean {\n  if (!address.includes("@")) throw new Error("invalid address");\n  return /@.+\\./.test(address);\n}\n',
  'src/routes/signup.ts': "import { verifyEmail } from '../auth/verify';\nexport function signup(email: string) {\n  if (!verifyEmail(email)) throw new Error('invalid email');\n}\n",
  'src/routes/invite.ts': "import { verifyEmail } from '../auth/verify';\nexport const invite = (e: string) => verifyEmail(e);\n",
  'src/billing/invoice.ts': 'export function computeInvoiceTotal(lines: number[]) {\n  return lines.reduce((a, b) => a + b, 0);\n}\n',
};

const textOf = (result: Record<string, unknown>): string => ((result.content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('');

describe.runIf(existsSync(BIN))('ctxloop mcp over stdio', () => {
  let repo: TempRepo;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  // where a cache would go by default: with --no-cache nothing may be written there
  let cacheHome: string;
  beforeAll(async () => {
    repo = makeRepo(FILES);
    cacheHome = mkdtempSync(join(tmpdir(), 'ctxloop-mcp-home-'));
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', repo.root, '--no-cache'], env: { ...env, XDG_CACHE_HOME: cacheHome }, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    client = new Client({ name: 'ctxloop-test', version: '0.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
    repo?.cleanup();
    if (cacheHome) rmSync(cacheHome, { recursive: true, force: true });
  });

  it('initializes as ctxloop and lists both tools with their parameters', async () => {
    expect(client.getServerVersion()?.name).toBe('ctxloop');
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(['locate_bug', 'retrieve_context']);
    const retrieve = byName.get('retrieve_context')!;
    expect(Object.keys(retrieve.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['task', 'root', 'scope', 'budget', 'format', 'deep']));
    expect(retrieve.inputSchema.required).toEqual(['task']);
    expect(byName.get('locate_bug')!.inputSchema.required).toEqual(['error']);
    expect(retrieve.annotations?.readOnlyHint).toBe(true);
  });

  it('answers retrieve_context with the context pack, the defining file first, and reports progress', async () => {
    const progress: string[] = [];
    const result = await client.callTool({ name: 'retrieve_context', arguments: { task: 'verifyEmail accepts addresses without a domain' } }, undefined, {
      onprogress: (p) => void progress.push(p.message ?? ''),
    });
    expect(result.isError).toBeFalsy();
    const text = textOf(result);
    expect(text).toMatch(/^# Context for: verifyEmail accepts addresses without a domain/);
    expect(text.indexOf('## src/auth/verify.ts')).toBeGreaterThan(0);
    expect(text.indexOf('## src/auth/verify.ts')).toBeLessThan(text.indexOf('## src/routes/'));
    // The code of each region comes with it, so the agent need not open the file.
    expect(text).toContain('export function verifyEmail');
    expect(progress[0]).toMatch(/^planned: /);
    expect(progress).toContainEqual(expect.stringMatching(/^cycle 1: \d+ candidates$/));
    expect(progress.at(-1), JSON.stringify(progress)).toMatch(/^packed \d+ files?, \d+ tokens$/);
  });

  it('answers in the JSON contract, within the budget it was given', async () => {
    const result = await client.callTool({ name: 'retrieve_context', arguments: { task: 'where is verifyEmail defined?', format: 'json', budget: 200, root: repo.root, deep: true } });
    const json = JSON.parse(textOf(result));
    expect(json.files[0].path).toBe('src/auth/verify.ts');
    expect(json.tokens).toBeLessThanOrEqual(200);
    expect(json.root).toBe(realpathSync(repo.root));
  });

  it('locates the code behind a stack trace', async () => {
    const error = 'Error: invalid address\n    at verifyEmail (src/auth/verify.ts:2:38)\n    at signup (src/routes/signup.ts:3:8)';
    const result = await client.callTool({ name: 'locate_bug', arguments: { error, format: 'paths' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result).split('\n').slice(0, 2).sort()).toEqual(['src/auth/verify.ts', 'src/routes/signup.ts']);
    // The locator's suspects come first, with confidence and reason, then the context pack.
    const md = textOf(await client.callTool({ name: 'locate_bug', arguments: { error } }));
    expect(md).toMatch(/^# Suspects\n\nError: invalid address\n/);
    expect(md).toMatch(/\n1\. src\/auth\/verify\.ts:2 \(verifyEmail\) {2}\d\.\d\d\n/);
    expect(md.indexOf('# Context for:')).toBeGreaterThan(md.indexOf('1. src/auth/verify.ts'));
    const json = JSON.parse(textOf(await client.callTool({ name: 'locate_bug', arguments: { error, format: 'json' } }))) as { files: Array<{ path: string }>; suspects: { candidates: Array<{ path: string; confidence: number }> } };
    expect(json.suspects.candidates[0]).toMatchObject({ path: 'src/auth/verify.ts' });
    expect(json.files[0]?.path).toBe('src/auth/verify.ts');
    // the locator kept to the server's --no-cache, as the loop did: no cache written anywhere
    expect(readdirSync(cacheHome)).toEqual([]);
  });

  it('fails as a tool error with one clear line: a missing root, a missing task', async () => {
    const missing = await client.callTool({ name: 'retrieve_context', arguments: { task: 'x', root: '/nonexistent/dir' } });
    expect(missing.isError).toBe(true);
    // in the tool's terms: the calling model passes arguments, not flags
    expect(textOf(missing)).toBe("ctxloop (root_not_found): root not found: /nonexistent/dir; pass root (or roots) naming an existing directory, absolute or relative to the server's directory");
    const invalid = await client.callTool({ name: 'retrieve_context', arguments: { root: repo.root } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/task/);
    // a root with a line break at its end was "not found" under the trimmed name, which exists
    const newline = await client.callTool({ name: 'retrieve_context', arguments: { task: 'x', root: `${repo.root}\n` } });
    expect(textOf(newline)).toMatch(/^ctxloop \(root_not_found\): root not found: "[^"]+\\n"; pass root/);
    const blank = await client.callTool({ name: 'retrieve_context', arguments: { task: '   ', root: repo.root } });
    expect(textOf(blank)).toBe('ctxloop (no_task): the task is empty; pass it as a non-empty string');
    const blankError = await client.callTool({ name: 'locate_bug', arguments: { error: ' \n ', root: repo.root } });
    expect(textOf(blankError)).toBe('ctxloop (no_task): the error text is empty');
    // one issue, one line: the integer check's own bound (2^53) is not said beside the budget's
    const huge = await client.callTool({ name: 'retrieve_context', arguments: { task: 'x', budget: 1e300 } });
    expect(textOf(huge)).toMatch(/^MCP error -32602: .*Too big: expected number to be <=10000000 at budget$/);
    // The server is still there after both.
    const again = await client.callTool({ name: 'retrieve_context', arguments: { task: 'computeInvoiceTotal', format: 'paths' } });
    expect(textOf(again).split('\n')[0]).toBe('src/billing/invoice.ts');
  });

  it('logs on stderr only', () => {
    expect(stderr).toContain('ctxloop mcp: serving retrieve_context and locate_bug');
  });
});

/** `ctxloop mcp` on a repository of `FILES` (removed after `test`), as a raw stdio peer. */
async function withServer(flags: string[], test: (server: ReturnType<typeof startServer>) => Promise<void>): Promise<void> {
  const repo = makeRepo(FILES);
  try {
    await test(startServer(repo.root, flags));
  } finally {
    repo.cleanup();
  }
}

/** `ctxloop mcp` on `root`: what it printed so far, lines to send, its exit code. */
function startServer(root: string, flags: string[]) {
  const child = spawn(process.execPath, [BIN, 'mcp', '--root', root, '--no-cache', ...flags], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => void (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => void (out.stderr += c.toString()));
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  return {
    child,
    out,
    exited,
    /** One line as given (a string), or a JSON-RPC message. */
    send: (line: string | object): void => void child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify({ jsonrpc: '2.0', ...line })}\n`),
    initialize: (): void => void child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } })}\n`),
    /** Resolves once `test` holds of what it printed (checked every 20 ms). */
    until: (test: () => boolean): Promise<void> =>
      new Promise((done) => {
        const check = (): void => void (test() ? done() : setTimeout(check, 20));
        check();
      }),
  };
}

describe.runIf(existsSync(BIN))('ctxloop mcp stdout', () => {
  it('carries JSON-RPC and nothing else, and the server exits 0 when stdin closes', async () => {
    await withServer(['--verbose'], async (server) => {
      const replies = (n: number): Promise<void> => server.until(() => server.out.stdout.split('\n').filter((l) => l.includes('"id"')).length >= n);
      server.initialize();
      await replies(1);
      server.send({ method: 'notifications/initialized' });
      server.send({ id: 2, method: 'tools/call', params: { name: 'retrieve_context', arguments: { task: 'verifyEmail' }, _meta: { progressToken: 'p1' } } });
      await replies(2);
      server.child.stdin.end();
      expect(await server.exited).toBe(0);
      const { stdout, stderr } = server.out;
      const lines = stdout.split('\n').filter((l) => l !== '');
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
      expect(lines.some((l) => l.includes('notifications/progress'))).toBe(true);
      const reply = lines.map((l) => JSON.parse(l)).find((m) => m.id === 2);
      expect(reply.result.content[0].text).toContain('## src/auth/verify.ts');
      // --verbose logs plenty, all of it on stderr.
      expect(stderr).toContain('debug:');
    });
  });
});

describe.runIf(existsSync(BIN))('ctxloop mcp stopped by a signal', () => {
  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)('%s: exit %i, not 0 (a supervisor saw a clean end)', async (signal, code) => {
    await withServer(['--quiet'], async (server) => {
      server.initialize();
      await server.until(() => server.out.stdout.includes('"id":1'));
      server.child.kill(signal);
      expect(await server.exited).toBe(code);
      expect(server.out.stderr).not.toMatch(/\n\s+at /);
    });
  });
});

describe.runIf(existsSync(BIN))('ctxloop mcp when stdin closes with calls running', () => {
  it('answers every call it read before it exits 0 (it closed at once and the calls got no reply)', async () => {
    await withServer(['--quiet'], async (server) => {
      // All of it written at once and stdin closed behind it, as `printf … | ctxloop mcp` does.
      server.initialize();
      server.send({ method: 'notifications/initialized' });
      server.send({ id: 2, method: 'tools/call', params: { name: 'retrieve_context', arguments: { task: 'verifyEmail', format: 'paths' } } });
      server.send({ id: 3, method: 'tools/call', params: { name: 'locate_bug', arguments: { error: 'Error: invalid email\n    at signup (src/routes/signup.ts:3:9)', format: 'paths' } } });
      server.child.stdin.end();
      expect(await server.exited).toBe(0);
      const replies = server.out.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id?: number; result?: { content: Array<{ text: string }> } });
      expect(replies.map((m) => m.id)).toEqual([1, 2, 3]);
      expect(replies[1]!.result!.content[0]!.text).toContain('src/auth/verify.ts');
      expect(replies[2]!.result!.content[0]!.text).toContain('src/routes/signup.ts');
    });
  });
});

describe.runIf(existsSync(BIN))('ctxloop mcp when its reader is gone', () => {
  it('exits 0 once stdin closes, its answers unwritable (EPIPE): it waited for a drain that never came and exited 13', async () => {
    await withServer(['--quiet'], async (server) => {
      server.child.stdout.destroy();
      await new Promise((done) => setTimeout(done, 200));
      server.send({ id: 1, method: 'ping' });
      server.child.stdin.end();
      expect(await server.exited).toBe(0);
      expect(server.out.stderr).toBe('');
    });
  });
});

describe.runIf(existsSync(BIN))('ctxloop mcp when the last request has no newline after it', () => {
  it('answers it before it exits 0 (it sat in the transport\'s buffer, unanswered)', async () => {
    await withServer(['--quiet'], async (server) => {
      server.initialize();
      server.send({ method: 'notifications/initialized' });
      // `printf '%s'` and `echo -n` end the last line without a newline
      server.child.stdin.end(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'retrieve_context', arguments: { task: 'verifyEmail', format: 'paths' } } }));
      expect(await server.exited).toBe(0);
      const replies = server.out.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id?: number; result?: { content: Array<{ text: string }> } });
      expect(replies.map((m) => m.id)).toEqual([1, 2]);
      expect(replies[1]!.result!.content[0]!.text).toContain('src/auth/verify.ts');
    });
  });

  it('answers a last line that is not JSON with a parse error', async () => {
    await withServer(['--quiet'], async (server) => {
      server.initialize();
      server.child.stdin.end('{"jsonrpc": "2.0", "id": 2, "method": ');
      expect(await server.exited).toBe(0);
      const replies = server.out.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id?: number | null; error?: { code: number } });
      expect(replies.map((m) => m.id)).toEqual([1, null]);
      expect(replies[1]!.error!.code).toBe(-32700);
    });
  });
});

describe.runIf(existsSync(BIN))('ctxloop mcp on a request line over 10 MB', () => {
  it('refuses that request alone, under its id, and serves on (the connection closed, exit 1 or 13)', async () => {
    await withServer([], async (server) => {
      const replies = (): Array<{ id?: number | null; result?: { content: Array<{ text: string }> }; error?: { code: number; message: string } }> => server.out.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
      server.initialize();
      await server.until(() => replies().length >= 1);
      server.send({ method: 'notifications/initialized' });
      // one line of 11 MB
      server.send({ id: 2, method: 'tools/call', params: { name: 'retrieve_context', arguments: { task: 'x '.repeat(5_500_000) } } });
      // the SDK's client writes the id last, after the params; a longer number than the id's digits is no id
      server.send(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"retrieve_context","arguments":{"task":"${'y '.repeat(5_500_000)}"}},"id":9}`);
      server.send({ id: 3, method: 'tools/call', params: { name: 'retrieve_context', arguments: { task: 'verifyEmail', format: 'paths' } } });
      await server.until(() => replies().some((m) => m.id === 3));
      expect(replies().find((m) => m.id === 2)?.error).toMatchObject({ code: -32600, message: 'Invalid Request: a request line over 10 MB is not read' });
      expect(replies().find((m) => m.id === 9)?.error).toMatchObject({ code: -32600 });
      expect(replies().find((m) => m.id === 3)?.result?.content[0]?.text).toContain('src/auth/verify.ts');
      server.child.stdin.end();
      expect(await server.exited).toBe(0);
      expect(server.out.stderr).toContain('mcp: a request line over 10 MB is not read (request 2)\n');
      expect(server.out.stderr).not.toContain('connection closed');
    });
  });

  it('answers a call already running as usual (it was cut off with the connection), and the line without an id under null', async () => {
    await withServer(['--quiet'], async (server) => {
      const replies = (): Array<{ id?: number | null; result?: { content: Array<{ text: string }> }; error?: { code: number; message: string } }> => server.out.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
      server.initialize();
      await server.until(() => replies().length >= 1);
      server.send({ method: 'notifications/initialized' });
      server.send({ id: 2, method: 'tools/call', params: { name: 'retrieve_context', arguments: { task: 'verifyEmail', format: 'paths' } } });
      server.send(`"${'x'.repeat(11_000_000)}"`);
      server.child.stdin.end();
      expect(await server.exited).toBe(0);
      expect(replies().find((m) => m.id === 2)?.result?.content[0]?.text).toContain('src/auth/verify.ts');
      expect(replies().find((m) => m.id === null)?.error).toMatchObject({ code: -32600 });
    });
  });
});

describe.runIf(existsSync(BIN))('ctxloop mcp on a line that is not JSON-RPC', () => {
  it('answers it with a JSON-RPC error (id null) instead of silence, says so on stderr, and serves on', async () => {
    await withServer([], async (server) => {
      const lines = (): Array<Record<string, unknown>> => server.out.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
      server.initialize();
      server.send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"retrieve_context","arguments":{"task":"x","budget":Infinity}}}');
      server.send('{"hello":1}');
      // its id is readable, its progress token is not one: answered under its id (it was id null, and the client waited)
      server.send({ id: 4, method: 'tools/call', params: { name: 'retrieve_context', arguments: { task: 'x' }, _meta: { progressToken: 1.5 } } });
      // a request the SDK's schema refuses: one line naming the field (it was a multi-line JSON dump, -32603)
      server.send({ id: 5, method: 'tools/call', params: { name: 'retrieve_context', arguments: null } });
      server.send({ id: 3, method: 'tools/list' });
      await server.until(() => lines().some((m) => m.id === 3) && lines().some((m) => m.id === 5));
      server.child.stdin.end();
      expect(await server.exited).toBe(0);
      const errors = lines().filter((m) => m.id === null).map((m) => (m.error as { code: number }).code);
      expect(errors).toEqual([-32700, -32600]);
      expect(lines().find((m) => m.id === 4)).toMatchObject({ error: { code: -32600 } });
      expect(lines().find((m) => m.id === 5)).toMatchObject({ error: { code: -32602, message: 'Invalid params: params.arguments: Invalid input: expected record, received null' } });
      expect(server.out.stderr).toContain('warning: mcp: Parse error: a request line is not JSON');
    });
  });
});

describe.runIf(existsSync(BIN))('ctxloop mcp flags', () => {
  const run = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((done) => {
      const child = execFile(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
      child.stdin?.end();
    });

  it('prints its help on stdout with exit 0, also through ctxloop help mcp', async () => {
    for (const args of [['mcp', '--help'], ['help', 'mcp']]) {
      const r = await run(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('ctxloop mcp: an MCP server on stdio');
      expect(r.stdout).toContain('--root [LABEL=]DIR');
    }
  });

  it.each([
    [['mcp', '--root', '/nonexistent/dir'], /root not found: \/nonexistent\/dir/],
    [['mcp', '--root', 'a=/tmp', '--root', 'a=/'], /two roots have the label "a"/],
    [['mcp', '--bogus'], /unknown flag --bogus/],
    [['mcp', '--budget', '5'], /--budget must be between/],
  ])('refuses %j before serving: one line on stderr, nothing on stdout, exit 2', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toMatch(message);
  });
});
