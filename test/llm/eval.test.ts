/** `ctxloop eval --provider`: model usage per task, from the stub's own accounting. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvalArgs } from '../../src/eval/args.js';
import { createCtxloopRunner } from '../../src/eval/methods.js';
import { buildReport, renderReport } from '../../src/eval/report.js';
import { scoreRanking } from '../../src/eval/metrics.js';
import type { EvalRecord } from '../../src/eval/types.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import type { TempRepo } from '../helpers/make-repo.js';
import { startStubLlm, type StubLlm } from '../helpers/stub-llm.js';
import { emailRepo } from './fixture.js';

describe('eval with a provider', () => {
  let repo: TempRepo;
  let stub: StubLlm;
  beforeAll(async () => {
    repo = emailRepo();
    stub = await startStubLlm();
  });
  afterAll(async () => {
    await stub.close();
    repo.cleanup();
  });

  it('parses --provider and --model, and refuses them with bm25', () => {
    expect(parseEvalArgs(['--dataset', 'd.jsonl', '--repos', 'r', '--provider', 'openai', '--model', 'qwen2.5-coder'], '/w')).toMatchObject({ provider: 'openai', model: 'qwen2.5-coder' });
    expect(parseEvalArgs(['--dataset', 'd.jsonl', '--repos', 'r'], '/w')).toMatchObject({ provider: 'offline' });
    expect(() => parseEvalArgs(['--dataset', 'd', '--repos', 'r', '--provider', 'gpt'], '/w')).toThrow(/--provider must be one of/);
    expect(() => parseEvalArgs(['--dataset', 'd', '--repos', 'r', '--method', 'bm25', '--provider', 'openai'], '/w')).toThrow(/--method ctxloop/);
  });

  it('records input tokens per task and per cycle, and shows them in the report', async () => {
    const env = { OPENAI_BASE_URL: stub.openaiURL };
    const runner = createCtxloopRunner((task, options) => retrieve(task, { ...options, env }), false, { provider: 'openai', model: 'stub-model' });
    const output = await runner('verifyEmail accepts addresses without a domain', { root: repo.root });
    expect(output.model).toMatchObject({ provider: 'openai', calls: stub.requests.length });
    expect(output.model!.inputTokens).toBeGreaterThan(0);
    expect(stub.requests.every((r) => r.body.model === 'stub-model')).toBe(true);

    const record: EvalRecord = { id: 't', repo: 'o/r', language: 'ts', method: 'ctxloop', ranking: output.ranking, files: output.files, gold: ['src/auth/verify.ts'], metrics: scoreRanking(output.ranking, ['src/auth/verify.ts']), tokens: output.tokens, seconds: 1, checkoutSeconds: 0, model: output.model! };
    const report = buildReport([record], { method: 'ctxloop', dataset: 'd' });
    expect(report.overall.inputTokens).toBe(output.model!.inputTokens);
    expect(report.overall.inputTokensPerCycle).toBe(output.model!.inputTokens / output.model!.cycles);
    expect(renderReport(report)).toContain('in tok/cycle');
  });
});
