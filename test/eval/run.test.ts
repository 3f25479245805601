import { describe, expect, it } from 'vitest';
import type { RetrieveResult } from '../../src/core/types.js';
import { createCtxloopRunner, toMethodOutput } from '../../src/eval/methods.js';
import { runEval } from '../../src/eval/run.js';
import type { EvalTask, MethodRunner, MethodRunOptions } from '../../src/eval/types.js';

const task = (id: string, gold: string[]): EvalTask => ({ id, repo: 'acme/widget', base_commit: 'abc1234', task: `task ${id}`, gold_files: gold });
const tasks = [task('one', ['src/a.ts']), task('two', ['src/b.ts']), task('three', ['src/c.go'])];
const checkout = async (): Promise<string> => '/nowhere';

describe('runEval', () => {
  it('records a failing task as a miss and goes on', async () => {
    const runner: MethodRunner = async (text) => {
      if (text === 'task two') throw new Error('search exploded');
      return { ranking: ['x.ts', 'src/a.ts', 'src/c.go'], files: ['x.ts'], tokens: 42 };
    };
    const seen: Array<[string, number, number]> = [];
    const records = await runEval({ tasks, reposDir: '/r', workDir: '/w', runner, checkout, onRecord: (record, done, total) => void seen.push([record.id, done, total]) });
    expect(seen).toEqual([['one', 1, 3], ['two', 2, 3], ['three', 3, 3]]);
    expect(records[0]).toMatchObject({ id: 'one', language: 'typescript', method: 'ctxloop', files: ['x.ts'], tokens: 42, metrics: { acc1: 0, hit5: 1, rr: 0.5 } });
    expect(records[1]).toMatchObject({ id: 'two', error: 'search exploded', ranking: [], metrics: { hit5: 0, rr: 0 } });
    expect(records[2]).toMatchObject({ id: 'three', language: 'go', metrics: { rr: 1 / 3 } });
    expect(records[0]).not.toHaveProperty('cycle1');
  });

  it('records a failed checkout with its message', async () => {
    const records = await runEval({
      tasks: tasks.slice(0, 1), reposDir: '/r', workDir: '/w',
      runner: async () => ({ ranking: ['src/a.ts'], files: [], tokens: 0 }),
      checkout: async () => { throw new Error('no mirror of acme/widget'); },
    });
    expect(records[0]?.error).toBe('checkout: no mirror of acme/widget');
  });

  it('runs one cycle beside the full loop with cycle1', async () => {
    const calls: MethodRunOptions[] = [];
    const runner: MethodRunner = async (_text, options) => {
      calls.push(options);
      return options.maxCycles === 1 ? { ranking: ['z', 'src/a.ts'], files: [], tokens: 1 } : { ranking: ['src/a.ts'], files: ['src/a.ts'], tokens: 9 };
    };
    const [record] = await runEval({ tasks: tasks.slice(0, 1), reposDir: '/r', workDir: '/w', runner, checkout, cycle1: true, maxCycles: 3 });
    expect(calls.map((options) => options.maxCycles)).toEqual([3, 1]);
    expect(record?.metrics.acc1).toBe(1);
    expect(record?.cycle1).toEqual({ ranking: ['z', 'src/a.ts'], metrics: { acc1: 0, hit5: 1, acc5: 1, recall10: 1, rr: 0.5 } });
  });

  it('stops between tasks when aborted', async () => {
    const controller = new AbortController();
    const runner: MethodRunner = async () => ({ ranking: [], files: [], tokens: 0 });
    const run = runEval({ tasks, reposDir: '/r', workDir: '/w', runner, checkout, signal: controller.signal, onRecord: () => controller.abort() });
    await expect(run).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('the ctxloop runner', () => {
  it('calls retrieve offline with the root, cache and cycles, ranking files then candidates', async () => {
    const seen: unknown[] = [];
    const result = { files: [{ path: 'a.ts', score: 0.9, reason: '', regions: [] }], candidates: [{ path: 'b.ts', score: 0.5, reason: '' }, { path: 'a.ts', score: 0.4, reason: '' }], tokens: 120 };
    const runner = createCtxloopRunner(async (text, options) => (seen.push([text, options]), result as unknown as RetrieveResult), '/w/cache');
    expect(await runner('the task', { root: '/repo', maxCycles: 1 })).toEqual({ ranking: ['a.ts', 'b.ts'], files: ['a.ts'], tokens: 120 });
    expect(seen).toEqual([['the task', { root: '/repo', provider: 'offline', cache: '/w/cache', maxCycles: 1 }]]);
    expect(toMethodOutput({ files: [], candidates: [], tokens: 0 })).toEqual({ ranking: [], files: [], tokens: 0 });
  });
});
