/** The LLM refiner: real SDK clients, stub server, temp repository; and the merge rule on its own. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/core/log.js';
import type { RetrieveOptions } from '../../src/core/options.js';
import type { Query, Score } from '../../src/core/types.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { mergeRefinement } from '../../src/refine/llm-refine.js';
import type { TempRepo } from '../helpers/make-repo.js';
import { autoReply, candidatePaths, startStubLlm, type RecordedRequest, type Reply, type StubLlm } from '../helpers/stub-llm.js';
import { emailRepo } from './fixture.js';

const TASK = 'verifyEmail accepts addresses without a domain';
let repo: TempRepo;
let stub: StubLlm;
let warnings: string[];
const logger: Logger = { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} };
const judge = autoReply((path) => (path === 'src/auth/verify.ts' ? 0.95 : path === 'src/lib/smtp.ts' ? 0.9 : path.startsWith('src/misc/') ? 0.1 : 0.3));
const isRefine = (r: RecordedRequest): boolean => r.schemaName === 'report_query' && r.prompt.includes('<scores>');
/** A refiner that points at the SMTP transport, a file the task's own words never reach. */
let refinerReply: (request: RecordedRequest) => Reply;

beforeAll(() => {
  repo = emailRepo();
});
afterAll(() => repo.cleanup());
beforeEach(async () => {
  warnings = [];
  refinerReply = () => ({ json: { keywords: ['SmtpTransport'], patterns: ['src/lib/**'], excludes: ['src/misc/util0.ts', 'src/routes/**', 'src/auth/verify.ts'], focusAreas: ['src/lib'] } });
  stub = await startStubLlm((request) => (isRefine(request) ? refinerReply(request) : judge(request)));
});
afterEach(() => stub.close());

const openai = (): RetrieveOptions => ({ root: repo.root, cache: false, logger, maxRetries: 0, timeout: 3000, env: { OPENAI_BASE_URL: stub.openaiURL, OPENAI_API_KEY: 'x' } });
const judgedPaths = (): string[] => stub.requests.filter((r) => r.schemaName === 'report_scores').flatMap((r) => candidatePaths(r.prompt));

describe('the LLM refiner', () => {
  it('gets the task, compact scores, the gaps and the query, and its suggestions widen the next search', async () => {
    const result = await retrieve(TASK, openai());
    const refines = stub.requests.filter(isRefine);
    expect(refines.length).toBeGreaterThanOrEqual(1);
    const prompt = refines[0]!.prompt;
    expect(prompt).toContain(TASK);
    expect(prompt).toMatch(/^src\/auth\/verify\.ts 0\.95 stub verdict$/m);
    expect(prompt).toMatch(/<query>\nsymbols: verifyEmail/);
    expect(prompt).toMatch(/<gaps>\n[\s\S]*<\/gaps>/);
    expect(refines[0]!.body.response_format.json_schema.name).toBe('report_query');
    // Cycle 1 never saw the SMTP file; the refiner's keyword found it, and the model judged it.
    expect(result.cycles[0]!.query.symbols).not.toContain('SmtpTransport');
    expect(result.cycles[1]!.query.symbols).toContain('SmtpTransport');
    expect(judgedPaths()).toContain('src/lib/smtp.ts');
    expect(result.files.map((f) => f.path)).toEqual(['src/auth/verify.ts', 'src/lib/smtp.ts']);
    // Its usage is counted with the rest.
    expect(result.usage.llmCalls).toBe(stub.requests.length);
    expect(result.fallback).toBeUndefined();
  });

  it('is not asked on the last cycle, and a warm repeat asks it nothing', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'ctxloop-cache-'));
    try {
      const first = await retrieve(TASK, { ...openai(), cache, maxCycles: 2 });
      expect(stub.requests.filter(isRefine)).toHaveLength(1);
      const calls = stub.requests.length;
      const second = await retrieve(TASK, { ...openai(), cache, maxCycles: 2 });
      expect(stub.requests.length).toBe(calls);
      expect(second.usage.llmCalls).toBe(0);
      expect(second.files).toEqual(first.files);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('falls back to the deterministic refine alone after a reply unusable twice', async () => {
    refinerReply = () => ({ json: { keywords: 'SmtpTransport' } });
    const result = await retrieve(TASK, openai());
    // Each cycle's refine call gets one repair turn, then refine goes on alone.
    const refines = stub.requests.filter(isRefine);
    expect(refines.length).toBeGreaterThanOrEqual(2);
    expect(refines.map((r) => r.body.messages.length)).toEqual(refines.map((_, i) => (i % 2 === 0 ? 1 : 3)));
    expect(warnings.join('\n')).toMatch(/unusable refine reply twice .*refining offline/);
    expect(result.provider).toBe('openai');
    expect(result.fallback).toBeUndefined();
    expect(judgedPaths()).not.toContain('src/lib/smtp.ts');
    expect(result.files.map((f) => f.path)).toEqual(['src/auth/verify.ts']);
    expect(result.usage.llmCalls).toBe(stub.requests.length);
  });

  it('ends the model part when the refine call fails, and the run completes offline', async () => {
    refinerReply = () => ({ status: 401 });
    const result = await retrieve(TASK, openai());
    expect(result).toMatchObject({ provider: 'offline', fallback: { reason: 'auth_failed' } });
    expect(result.files[0]?.path).toBe('src/auth/verify.ts');
  });
});

describe('mergeRefinement', () => {
  const query = (over: Partial<Query> = {}): Query => ({ keywords: ['verifyemail'], weights: { verifyemail: 1 }, literals: [], symbols: ['verifyEmail'], paths: [], patterns: [], excludes: [], focusAreas: [], ...over });
  const score = (path: string, relevance: number): Score => ({ path, relevance, reason: '', missing: [], evidence: [] });
  const scores = [score('src/a.ts', 0.9), score('fixtures/big.json', 0.1), score('src/b.ts', 0.5)];

  it('widens the search, never the query scored against', () => {
    const next = query();
    const merged = mergeRefinement(next, { keywords: ['SmtpTransport', 'mail transport'], patterns: ['src/lib/**'], excludes: [], focusAreas: ['./src/lib/'] }, scores, query());
    expect(merged.next).toEqual(next);
    expect(merged.search).toMatchObject({ symbols: ['verifyEmail', 'SmtpTransport'], literals: ['mail transport'], patterns: ['src/lib/**'], focusAreas: ['src/lib'] });
    expect(merged.search.keywords).toContain('smtptransport');
    expect(merged.widened).toBe(true);
  });

  it('keeps an exclude only when it is the exact path of a candidate scored below 0.2', () => {
    const merged = mergeRefinement(query(), { keywords: [], patterns: [], excludes: ['fixtures/big.json', 'fixtures/**', 'src/b.ts', 'src/a.ts', 'nowhere.ts'], focusAreas: [] }, scores, query());
    expect(merged.next.excludes).toEqual(['fixtures/big.json']);
    expect(merged.search.excludes).toEqual(['fixtures/big.json']);
    expect(merged.widened).toBe(false);
  });

  it('is no new lead when it repeats what the last search already ran', () => {
    const dispatched = mergeRefinement(query(), { keywords: ['SmtpTransport'], patterns: [], excludes: [], focusAreas: [] }, scores, query()).search;
    expect(mergeRefinement(query(), { keywords: ['SmtpTransport'], patterns: [], excludes: [], focusAreas: [] }, scores, dispatched).widened).toBe(false);
  });
});
