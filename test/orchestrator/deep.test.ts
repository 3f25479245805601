import { describe, expect, it } from 'vitest';
import { retrieve } from '../../src/orchestrator/loop.js';
import type { RetrieveResult } from '../../src/core/types.js';
import { useTempRepos } from '../helpers/make-repo.js';

const makeRepo = useTempRepos();

/**
 * submitOrder sits in the middle of a chain: server → handleCheckout → submitOrder → chargeCard
 * → postJson. Neither end names submitOrder or any word of the task.
 */
const SHOP = {
  'src/server.ts': ["import { handleCheckout } from './routes/checkout';", '', 'export function startServer(app: App) {', "  app.post('/checkout', (req) => handleCheckout(req.body));", '}', ''].join('\n'),
  'src/routes/checkout.ts': ["import { submitOrder } from '../orders/submit';", '', 'export function handleCheckout(body: unknown) {', '  return submitOrder(body as Order);', '}', ''].join('\n'),
  'src/orders/submit.ts': ["import { chargeCard } from '../billing/charge';", '', 'export function submitOrder(order: Order) {', '  if (order.total <= 0) throw new Error("empty order");', '  return chargeCard(order.total);', '}', ''].join('\n'),
  'src/billing/charge.ts': ["import { postJson } from '../net/post';", '', 'export function chargeCard(amount: number) {', "  return postJson('/charges', { amount });", '}', ''].join('\n'),
  'src/net/post.ts': ['export async function postJson(url: string, body: object) {', '  return fetch(url, { method: "POST", body: JSON.stringify(body) });', '}', ''].join('\n'),
  'src/unrelated/colors.ts': ['export function mixColors(a: string, b: string) {', '  return a + b;', '}', ''].join('\n'),
};
const TASK = 'submitOrder rejects an order whose total is zero';

const ranking = (result: RetrieveResult): string[] => [...result.files.map((f) => f.path), ...result.candidates.map((c) => c.path)];

describe('retrieve --deep (real ripgrep, real files)', () => {
  // One cycle, so what the loop's own refinement would find in later cycles does not blur what deep mode adds.
  it('adds the files two calls away from the best file, up and down, and scores them', async () => {
    const repo = makeRepo(SHOP);
    const plain = await retrieve(TASK, { root: repo.root, cache: false, maxCycles: 1 });
    const deep = await retrieve(TASK, { root: repo.root, cache: false, maxCycles: 1, deep: true });
    expect(ranking(plain)).not.toContain('src/server.ts');
    expect(ranking(plain)).not.toContain('src/net/post.ts');
    const pass = deep.cycles.at(-1)!;
    expect(pass.deep).toEqual(expect.arrayContaining(['src/server.ts', 'src/billing/charge.ts', 'src/net/post.ts']));
    expect(deep.cycles).toHaveLength(2);
    expect(pass.deep).not.toContain('src/unrelated/colors.ts');
    expect(ranking(deep)).toEqual(expect.arrayContaining(['src/server.ts', 'src/net/post.ts']));
    // The file the task names stays first: deep mode widens the pool, it does not reorder what was proven.
    expect(ranking(deep)[0]).toBe('src/orders/submit.ts');
  });

  it('follows one hop at depth 1: what the best files call, not what that calls', async () => {
    const repo = makeRepo(SHOP);
    const deep = await retrieve(TASK, { root: repo.root, cache: false, maxCycles: 1, deep: true, deepDepth: 1 });
    const added = deep.cycles.flatMap((c) => c.deep ?? []);
    expect(added).toContain('src/billing/charge.ts');
    expect(added).not.toContain('src/net/post.ts');
  });
});
