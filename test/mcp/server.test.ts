/**
 * The MCP server in-process: the SDK's client over its in-memory transport, a real retriever on
 * temp repositories (or, for cancellation, a retriever that waits for the signal).
 */
import { realpathSync, symlinkSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { abortError, UsageError } from '../../src/core/errors.js';
import type { RetrieveOptions } from '../../src/core/options.js';
import type { RetrieveResult } from '../../src/core/types.js';
import { describeFailure, createMcpServer, MAX_CONCURRENT_CALLS } from '../../src/mcp/server.js';
import { createRetriever, type Retriever } from '../../src/orchestrator/retriever.js';
import { useTempRepos } from '../helpers/make-repo.js';

const makeRepo = useTempRepos();
const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

async function connect(retriever: Retriever, cwd = '/', confineTo?: string[]): Promise<Client> {
  const server = createMcpServer({ retriever, cwd, version: '9.9.9', ...(confineTo ? { confineTo } : {}) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  open.push(client);
  return client;
}

/** A retriever that answers nothing and keeps the options of each call. */
function recordingRetriever(): { seen: RetrieveOptions[]; retriever: Retriever } {
  const seen: RetrieveOptions[] = [];
  const retriever: Retriever = {
    retrieve: async (task, options = {}) => {
      seen.push(options);
      return { task, root: '/r', provider: 'offline', files: [], candidates: [], gaps: [], cycles: [], usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 }, tokens: 0 } satisfies RetrieveResult;
    },
    close: async () => {},
  };
  return { seen, retriever };
}

const textOf = (result: Record<string, unknown>): string => ((result.content as Array<{ text?: string }>) ?? []).map((c) => c.text ?? '').join('');

describe('createMcpServer', () => {
  it('searches several roots in one call, paths labelled', async () => {
    const api = makeRepo({ 'src/login.ts': 'export function handleLogin() {\n  throw new Error("no password");\n}\n' });
    const web = makeRepo({ 'src/form.ts': 'export function submitLogin() {\n  return fetch("/api/login");\n}\n' });
    const client = await connect(createRetriever({ cache: false, provider: 'offline' }));
    const result = await client.callTool({ name: 'retrieve_context', arguments: { task: 'submitLogin fails in handleLogin', roots: [{ label: 'api', path: api.root }, { label: 'web', path: web.root }], format: 'json' } });
    const json = JSON.parse(textOf(result));
    expect(json.files.map((f: { path: string }) => f.path).sort()).toEqual(['api:src/login.ts', 'web:src/form.ts']);
    expect(json.roots.map((r: { label: string }) => r.label)).toEqual(['api', 'web']);
  });

  it('resolves a relative root against the server directory and uses the server default otherwise', async () => {
    const repo = makeRepo({ 'pkg/calc.py': 'def add_numbers(a, b):\n    return a + b\n' });
    const client = await connect(createRetriever({ cache: false, provider: 'offline', root: repo.root }), realpathSync(repo.root));
    const viaDefault = JSON.parse(textOf(await client.callTool({ name: 'retrieve_context', arguments: { task: 'add_numbers is wrong', format: 'json' } })));
    const viaRelative = JSON.parse(textOf(await client.callTool({ name: 'retrieve_context', arguments: { task: 'add_numbers is wrong', format: 'json', root: '.' } })));
    expect(viaDefault.files[0].path).toBe('pkg/calc.py');
    expect(viaRelative.root).toBe(viaDefault.root);
  });

  it('with --confine, answers for roots inside its own and refuses any other, before reading it', async () => {
    const repo = makeRepo({ 'pkg/calc.py': 'def add_numbers(a, b):\n    return a + b\n', 'pkg/sub/more.py': 'def add_more():\n    pass\n' });
    const elsewhere = makeRepo({ 'secret/add_numbers.py': 'def add_numbers():\n    pass\n' });
    symlinkSync(elsewhere.root, `${repo.root}/link-out`);
    const served = realpathSync(repo.root);
    const client = await connect(createRetriever({ cache: false, provider: 'offline', root: repo.root }), served, [served]);
    const call = async (args: Record<string, unknown>) => client.callTool({ name: 'retrieve_context', arguments: { task: 'add_numbers is wrong', format: 'paths', ...args } });
    expect(textOf(await call({}))).toContain('pkg/calc.py');
    expect(textOf(await call({ root: 'pkg' })).trim()).toBe('calc.py');
    for (const root of [elsewhere.root, '..', '/', 'link-out', 'link-out/secret']) {
      const refused = await call({ root });
      expect(refused.isError, root).toBe(true);
      expect(textOf(refused), root).toMatch(/^ctxloop \(root_not_allowed\): root .* is outside the directories this server serves \(--confine\)/);
      expect(textOf(refused), root).not.toContain('add_numbers.py');
    }
    const several = await call({ roots: [{ label: 'a', path: served }, { label: 'b', path: elsewhere.root }] });
    expect(several.isError).toBe(true);
    const located = await client.callTool({ name: 'locate_bug', arguments: { error: 'add_numbers failed', root: elsewhere.root } });
    expect(located.isError).toBe(true);
    // without --confine the same call is answered (the documented default)
    const open = await connect(createRetriever({ cache: false, provider: 'offline', root: repo.root }), served);
    expect(textOf(await open.callTool({ name: 'retrieve_context', arguments: { task: 'add_numbers is wrong', format: 'paths', root: elsewhere.root } }))).toContain('secret/add_numbers.py');
  });

  it('passes the call options through: budget, scope, deep, content', async () => {
    const { seen, retriever } = recordingRetriever();
    const client = await connect(retriever, '/srv');
    await client.callTool({ name: 'retrieve_context', arguments: { task: 't', budget: 1234, scope: ['src'], deep: true, content: false, root: 'app' } });
    await client.callTool({ name: 'locate_bug', arguments: { error: 'boom', budget: 555 } });
    expect(seen[0]).toMatchObject({ budget: 1234, scope: ['src'], deep: true, withContent: false, root: '/srv/app' });
    expect(seen[1]).toMatchObject({ budget: 555, withContent: true });
    expect(seen[1]!.root).toBeUndefined();
  });

  it('refuses an argument a tool does not take, saying what it may have meant, instead of running without it', async () => {
    const { seen, retriever } = recordingRetriever();
    const client = await connect(retriever, '/srv');
    const call = async (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    // dropped, rootDir searched the server's own root and max_tokens packed the default budget
    const rootDir = await call('retrieve_context', { task: 't', rootDir: '/elsewhere' });
    expect(rootDir.isError).toBe(true);
    expect(textOf(rootDir)).toMatch(/unknown argument rootDir \(did you mean root\?\); retrieve_context takes task, root, roots, budget, format, content, scope, deep$/);
    expect(textOf(await call('retrieve_context', { task: 't', max_tokens: 500 }))).toMatch(/unknown argument max_tokens \(did you mean budget\?\)/);
    expect(textOf(await call('retrieve_context', { query: 't' }))).toMatch(/unknown argument query \(did you mean task\?\)/);
    expect(textOf(await call('locate_bug', { error: 'boom', fromat: 'json' }))).toMatch(/unknown argument fromat \(did you mean format\?\); locate_bug takes error, root/);
    expect(textOf(await call('locate_bug', { stacktrace: 'boom' }))).toMatch(/unknown argument stacktrace \(did you mean error\?\)/);
    // inside roots too: `name` for the label
    expect(textOf(await call('retrieve_context', { task: 't', roots: [{ path: '/a', name: 'api' }] }))).toMatch(/unknown argument name; each of roots takes path, label/);
    // many, or a long or odd name: a few named, each cut and quoted, the rest counted
    const many = textOf(await call('retrieve_context', { task: 't', ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`extra${i}`, i])), [`${'k'.repeat(5000)}`]: 1, 'a\nb': 2 }));
    expect(many).toMatch(/unknown arguments extra0, extra1, extra2, extra3, extra4 and 6 more; retrieve_context takes/);
    expect(textOf(await call('retrieve_context', { task: 't', [`${'k'.repeat(5000)}`]: 1 })).length).toBeLessThan(400);
    expect(textOf(await call('retrieve_context', { task: 't', 'a\nb': 1 }))).toContain('unknown argument "a\\nb";');
    expect(seen).toEqual([]);
    // the listed schema says so too
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.inputSchema.additionalProperties)).toEqual([false, false]);
    // and the arguments it does take still pass
    await call('retrieve_context', { task: 't', roots: [{ path: '/a', label: 'api' }], budget: 900 });
    expect(seen[0]).toMatchObject({ budget: 900, roots: [{ path: '/a', label: 'api' }] });
  });

  it('answers at most MAX_CONCURRENT_CALLS calls at once; the others wait their turn and are answered too', async () => {
    let running = 0;
    let most = 0;
    const slow: Retriever = {
      retrieve: async (task) => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 30));
        running--;
        return { task, root: '/r', provider: 'offline', files: [], candidates: [], gaps: [], cycles: [], usage: { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 }, tokens: 0 } satisfies RetrieveResult;
      },
      close: async () => {},
    };
    const client = await connect(slow);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => client.callTool({ name: 'retrieve_context', arguments: { task: `t${i}`, format: 'json' } })));
    expect(answers.map((a) => JSON.parse(textOf(a)).task)).toEqual(Array.from({ length: 12 }, (_, i) => `t${i}`));
    expect(most).toBe(MAX_CONCURRENT_CALLS);
  });

  it('stops the run when the client cancels the call', async () => {
    let signal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((done) => (started = done));
    const waiting: Retriever = {
      retrieve: (_task, options = {}) =>
        new Promise((_, reject) => {
          signal = options.signal;
          started();
          options.signal?.addEventListener('abort', () => reject(abortError()));
        }),
      close: async () => {},
    };
    const client = await connect(waiting);
    const controller = new AbortController();
    const call = client.callTool({ name: 'retrieve_context', arguments: { task: 'slow' } }, undefined, { signal: controller.signal });
    await running;
    controller.abort();
    await expect(call).rejects.toThrow();
    // The cancel notification reaches the server after the client has given up: wait for it.
    await vi.waitFor(() => expect(signal?.aborted).toBe(true));
  });
});

describe('describeFailure', () => {
  it('gives one line: the code, the message, the hint', () => {
    expect(describeFailure(new UsageError('bad_scope', 'scope not found: lib', { hint: 'check the path' }))).toBe('ctxloop (bad_scope): scope not found: lib; check the path');
    expect(describeFailure(new Error('boom\n  at x'))).toBe('ctxloop (internal): boom (this is a bug in ctxloop)');
    expect(describeFailure(abortError())).toBe('ctxloop (aborted): interrupted');
  });
});
