import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalInput, Evaluator } from '../../src/core/deps.js';
import { createMemoryCache } from '../../src/cache/store.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

/** A per-file evaluator that counts the files it is asked about. */
function countingEvaluator(): Evaluator & { seen: string[] } {
  const seen: string[] = [];
  return {
    id: 'counting',
    model: 'm1',
    version: 1,
    independent: true,
    seen,
    async evaluate(input: EvalInput) {
      seen.push(...input.candidates.map((c) => c.path));
      return {
        scores: input.candidates.map((c) => ({ path: c.path, relevance: c.path.includes('verify') ? 0.9 : 0.1, reason: 'stub', missing: [], evidence: [] })),
        usage: { llmCalls: 1, inputTokens: 10, outputTokens: 5, cacheHits: 0 },
      };
    },
  };
}

describe('score cache', () => {
  let repo: TempRepo;
  beforeAll(() => {
    repo = makeRepo({ 'src/verify.ts': 'export function verifyEmail() {}\n', 'src/use.ts': 'verifyEmail();\n' });
  });
  afterAll(() => repo.cleanup());

  it('does not send unchanged files again on a warm repeat, and re-sends an edited one', async () => {
    const cache = createMemoryCache();
    const evaluator = countingEvaluator();
    const first = await retrieve('verifyEmail', { root: repo.root, maxCycles: 1 }, { evaluator, cache });
    expect(evaluator.seen).toEqual(expect.arrayContaining(['src/verify.ts', 'src/use.ts']));
    expect(first.usage.cacheHits).toBe(0);

    evaluator.seen.length = 0;
    const warm = await retrieve('verifyEmail', { root: repo.root, maxCycles: 1 }, { evaluator, cache });
    expect(evaluator.seen).toEqual([]);
    expect(warm.usage.cacheHits).toBe(2);
    expect(warm.files.map((f) => f.path)).toEqual(first.files.map((f) => f.path));

    repo.write('src/use.ts', 'verifyEmail(); // edited\n');
    await retrieve('verifyEmail', { root: repo.root, maxCycles: 1 }, { evaluator, cache });
    expect(evaluator.seen).toEqual(['src/use.ts']);
  });

  it('keys by task: another task is evaluated afresh', async () => {
    const cache = createMemoryCache();
    const evaluator = countingEvaluator();
    await retrieve('verifyEmail', { root: repo.root, maxCycles: 1 }, { evaluator, cache });
    evaluator.seen.length = 0;
    await retrieve('verifyEmail is slow', { root: repo.root, maxCycles: 1 }, { evaluator, cache });
    expect(evaluator.seen.length).toBeGreaterThan(0);
  });
});
