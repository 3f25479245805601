import { describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/cache/memory.js';
import type { EvalInput, Evaluator } from '../../src/core/deps.js';
import type { Candidate } from '../../src/core/types.js';
import { createFactsReader } from '../../src/facts/reader.js';
import { judgeCandidates } from '../../src/orchestrator/judge.js';
import { planQuery } from '../../src/refine/plan.js';
import { useTempRepos } from '../helpers/make-repo.js';

const makeRepo = useTempRepos();

describe('judgeCandidates', () => {
  it('shows the model each file as its syntax tree reads it, though the loop ranked on patterns', async () => {
    const repo = makeRepo({ 'src/api.ts': 'export const api = {\n  fetchUser(id: string) {\n    if (!id) throw new Error("empty user id");\n    return { id };\n  },\n};\n' });
    const reader = createFactsReader({ cache: createMemoryCache(), treeSitter: false });
    const facts = await reader.read(repo.root, ['src/api.ts']);
    expect(facts.get('src/api.ts')!.defs.map((d) => d.name)).not.toContain('fetchUser');
    const seen: string[][] = [];
    const model: Evaluator = {
      id: 'recording',
      model: 'm',
      async evaluate(input) {
        seen.push(input.facts.get('src/api.ts')!.defs.map((d) => d.name));
        return { scores: input.candidates.map((c) => ({ path: c.path, relevance: 0.9, reason: 'r', missing: [], evidence: [] })), usage: { llmCalls: 1, inputTokens: 1, outputTokens: 1, cacheHits: 0 } };
      },
    };
    const task = 'fetchUser throws "empty user id"';
    const plan = planQuery(task);
    const candidate: Candidate = { path: 'src/api.ts', size: 100, termFreq: { fetchuser: 1 }, literals: [], symbols: ['fetchUser'], mentions: [], hits: [{ line: 2, text: '  fetchUser(id: string) {', terms: ['fetchuser'] }], sources: ['content'] };
    const input: EvalInput = { task, plan, query: plan, candidates: [candidate], facts, stats: { totalFiles: 1, avgSize: 100, docFreq: { fetchuser: 1 }, skipped: {} }, files: ['src/api.ts'] };
    const out = await judgeCandidates(model, createMemoryCache(), reader, input, { threshold: 0.7, modelCandidates: 5, pinned: new Set(), root: repo.root });
    expect(seen).toEqual([expect.arrayContaining(['fetchUser'])]);
    expect(out.judged).toEqual(['src/api.ts']);
    // the loop's own facts are left as they were
    expect(input.facts.get('src/api.ts')!.defs.map((d) => d.name)).not.toContain('fetchUser');
  });
});
