/**
 * One retriever for a pipeline: tasks in parallel give what they give one after another, and the
 * caches it keeps make a repeat free. Real ripgrep on a temp repository; the model is the real
 * OpenAI SDK against the stub server.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/cache/memory.js';
import type { FactsReader } from '../../src/core/deps.js';
import type { RetrieveOptions } from '../../src/core/options.js';
import { createFactsReader } from '../../src/facts/reader.js';
import type { RetrieveResult } from '../../src/core/types.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { createRetriever } from '../../src/orchestrator/retriever.js';
import { useTempRepos } from '../helpers/make-repo.js';
import { autoReply, startStubLlm, type StubLlm } from '../helpers/stub-llm.js';

const makeRepo = useTempRepos();

function shopRepo() {
  return makeRepo({
    'src/cart/total.ts': 'export function cartTotal(items: { price: number; qty: number }[]) {\n  return items.reduce((sum, i) => sum + i.price * i.qty, 0);\n}\n',
    'src/cart/discount.ts': "import { cartTotal } from './total';\nexport function applyDiscount(items: { price: number; qty: number }[], code: string) {\n  return code === 'TEN' ? cartTotal(items) * 0.9 : cartTotal(items);\n}\n",
    'src/auth/session.ts': 'export function refreshSession(token: string) {\n  if (isExpired(token)) return renewToken(token);\n  return token;\n}\nfunction isExpired(t: string) { return t.length < 10; }\nfunction renewToken(t: string) { return t + "-renewed"; }\n',
    'src/mail/send.ts': 'export async function sendReceipt(to: string, total: number) {\n  await deliverMail(to, `total: ${total}`);\n}\nasync function deliverMail(to: string, body: string) {}\n',
    'README.md': '# shop\n\nA small shop.\n',
  });
}

const TASKS = [
  'cartTotal ignores the quantity of each item',
  'refreshSession renews tokens that are still valid',
  'sendReceipt is sent before the discount from applyDiscount is applied',
];

/** What a caller reads from a result: the same in parallel and in sequence. */
const gist = (r: RetrieveResult) => ({ files: r.files, candidates: r.candidates, gaps: r.gaps, tokens: r.tokens });

describe('createRetriever', () => {
  it('gives the same results for tasks in parallel as one after another', async () => {
    const repo = shopRepo();
    const options: RetrieveOptions = { root: repo.root, cache: false, provider: 'offline' };
    const sequential: RetrieveResult[] = [];
    for (const task of TASKS) sequential.push(await retrieve(task, options));
    const shared = createRetriever(options);
    const parallel = await Promise.all(TASKS.map((task) => shared.retrieve(task)));
    await shared.close();
    expect(parallel.map(gist)).toEqual(sequential.map(gist));
    // Different tasks found different files: the runs did not bleed into each other.
    expect(parallel.map((r) => r.files[0]?.path)).toEqual(['src/cart/total.ts', 'src/auth/session.ts', 'src/mail/send.ts']);
  });

  it('lists a file that reached the threshold but could not be read to be packed, saying so (it vanished from the files in silence)', async () => {
    const repo = shopRepo();
    const real = createFactsReader({ cache: createMemoryCache() });
    // deleted, made unreadable or replaced between the search and the packing
    const facts: FactsReader = { read: (root, paths, signal) => real.read(root, paths, signal), readText: async (root, path) => (path === 'src/cart/total.ts' ? undefined : real.readText(root, path)) };
    const result = await createRetriever({ root: repo.root, cache: false, provider: 'offline' }, { facts }).retrieve('cartTotal ignores the quantity of each item');
    expect(result.files.map((f) => f.path)).not.toContain('src/cart/total.ts');
    const listed = result.candidates.find((c) => c.path === 'src/cart/total.ts');
    expect(listed?.score).toBeGreaterThanOrEqual(0.7);
    expect(listed?.reason).toMatch(/^not packed: the file could not be read \(deleted, unreadable or replaced since the search\); /);
  });

  it('takes per-call options over its own, including another root', async () => {
    const repo = shopRepo();
    const other = makeRepo({ 'lib/total.py': 'def cart_total(items):\n    return sum(i.price for i in items)\n' });
    const retriever = createRetriever({ root: repo.root, cache: false, provider: 'offline' });
    const here = await retriever.retrieve('cartTotal ignores the quantity');
    const there = await retriever.retrieve('cart_total ignores the quantity', { root: other.root, budget: 500 });
    expect(here.files[0]!.path).toBe('src/cart/total.ts');
    expect(there.files[0]!.path).toBe('lib/total.py');
    expect(there.tokens).toBeLessThanOrEqual(500);
  });

  it('reads options a caller inherits or defines as getters, as a field would be read: the run searched the working directory and wrote the default cache', async () => {
    const repo = shopRepo();
    const cacheDir = mkdtempSync(join(tmpdir(), 'ctxloop-inherited-'));
    try {
      const inherited = Object.create({ root: repo.root, cache: cacheDir, provider: 'offline', budget: 400 }) as RetrieveOptions;
      class Settings {
        get root(): string {
          return repo.root;
        }
        get threshold(): number {
          return 0.99;
        }
        describe(): string {
          return 'not an option';
        }
      }
      const viaProto = await retrieve('cartTotal ignores the quantity', inherited);
      expect(viaProto.root).toBe(repo.root);
      expect(viaProto.files[0]?.path).toBe('src/cart/total.ts');
      expect(viaProto.tokens).toBeLessThanOrEqual(400);
      expect(readdirSync(cacheDir).some((name) => name.endsWith('.json'))).toBe(true);
      const retriever = createRetriever({ root: '/nonexistent-ctxloop-root', cache: false });
      const viaGetters = await retriever.retrieve('cartTotal ignores the quantity', new Settings() as unknown as RetrieveOptions);
      expect(viaGetters.root).toBe(repo.root);
      expect(viaGetters.files.every((f) => f.score >= 0.99)).toBe(true);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('reads one config file and says so when the other is there too, broken or not', async () => {
    const repo = makeRepo({ 'src/a.ts': 'export const token = 1;\n', 'ctxloop.config.json': '{"budget": 3000}\n', '.ctxloop.json': '{broken' });
    const warnings: string[] = [];
    const result = await retrieve('token', { root: repo.root, cache: false, logger: { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} } });
    expect(result.files.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(warnings).toContain('.ctxloop.json is not read: ctxloop.config.json is there too, and only one config file is read');
  });
});

describe('createRetriever with a model', () => {
  let stub: StubLlm;
  beforeEach(async () => {
    stub = await startStubLlm(autoReply((path) => (path.startsWith('src/cart/') ? 0.9 : 0.3)));
  });
  afterEach(() => stub.close());

  const withModel = (root: string): RetrieveOptions => ({ root, cache: false, maxRetries: 0, timeout: 5000, env: { OPENAI_BASE_URL: stub.openaiURL, OPENAI_API_KEY: 'x' } });

  it('keeps its caches warm across calls: a repeat makes no model call', async () => {
    const repo = shopRepo();
    const retriever = createRetriever(withModel(repo.root));
    const first = await retriever.retrieve(TASKS[0]!);
    expect(first.provider).toBe('openai');
    expect(first.usage.llmCalls).toBeGreaterThan(0);
    const calls = stub.requests.length;
    const second = await retriever.retrieve(TASKS[0]!);
    expect(second.usage.llmCalls).toBe(0);
    expect(second.usage.cacheHits).toBeGreaterThan(0);
    expect(stub.requests.length).toBe(calls);
    expect(gist(second)).toEqual(gist(first));
    // Without the retriever (and without a disk cache) the same repeat pays again.
    const cold = await retrieve(TASKS[0]!, withModel(repo.root));
    expect(cold.usage.llmCalls).toBeGreaterThan(0);
    await retriever.close();
  });

  it('gives the same results for tasks in parallel as one after another, model included', async () => {
    const repo = shopRepo();
    const sequential: RetrieveResult[] = [];
    for (const task of TASKS) sequential.push(await retrieve(task, withModel(repo.root)));
    const shared = createRetriever(withModel(repo.root));
    const parallel = await Promise.all(TASKS.map((task) => shared.retrieve(task)));
    await shared.close();
    expect(parallel.map(gist)).toEqual(sequential.map(gist));
    expect(parallel.every((r) => r.provider === 'openai' && r.fallback === undefined)).toBe(true);
  });
});

describe('retrieve: facts to rank by, facts to pack by', () => {
  it('ranks on facts read by patterns and cuts the packed regions along the syntax tree (a method of an object literal is a region of its own)', async () => {
    const filler = Array.from({ length: 30 }, (_, i) => `  helper${i}(x: number) {\n    return x + ${i};\n  },`).join('\n');
    const repo = makeRepo({
      'src/api.ts': `export const api = {\n${filler}\n  fetchUser(id: string) {\n    if (!id) throw new Error("empty user id");\n    return { id };\n  },\n${filler.replace(/helper/g, 'other')}\n};\n`,
      'src/other.ts': 'export const unrelated = 1;\n',
    });
    const cache = mkdtempSync(join(tmpdir(), 'ctxloop-facts-'));
    try {
      const result = await retrieve('fetchUser throws "empty user id" for a blank id', { root: repo.root, cache, provider: 'offline' });
      const packed = result.files.find((f) => f.path === 'src/api.ts');
      expect(packed?.regions.map((r) => r.symbol)).toContain('fetchUser');
      const store = readdirSync(cache).find((name) => /^[0-9a-f]+\.json$/.test(name))!;
      const facts = Object.values((JSON.parse(readFileSync(join(cache, store), 'utf8')) as { facts: Record<string, { v: { path: string; parser?: string } }> }).facts);
      expect(facts.filter((f) => f.v.path === 'src/api.ts').map((f) => f.v.parser).sort()).toEqual(['patterns', 'tree-sitter']);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
