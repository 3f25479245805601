/**
 * The egress manifest says what went to which provider, checked against what the stub server
 * really received; `--no-egress` refuses a run with a model before anything is sent.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatModel } from '../../src/core/deps.js';
import { toRanges } from '../../src/llm/egress.js';
import { guardModel } from '../../src/llm/guard.js';
import { retrieve } from '../../src/orchestrator/loop.js';
import { useTempDirs } from '../helpers/temp-dir.js';
import type { TempRepo } from '../helpers/make-repo.js';
import { autoReply, startStubLlm, type RecordedRequest, type StubLlm } from '../helpers/stub-llm.js';
import { emailRepo } from '../llm/fixture.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');
const TASK = 'verifyEmail accepts addresses without a domain; sendMail is never called';
const tempDir = useTempDirs();

let repo: TempRepo;
let stub: StubLlm;
beforeAll(async () => {
  repo = emailRepo();
  stub = await startStubLlm(autoReply((path) => (path === 'src/auth/verify.ts' || path === 'src/routes/signup.ts' ? 0.9 : 0.3)));
});
afterAll(async () => {
  await stub.close();
  repo.cleanup();
});

const withModel = (extra: Record<string, unknown> = {}) => ({ root: repo.root, cache: false as const, maxRetries: 0, env: { OPENAI_BASE_URL: stub.openaiURL, OPENAI_API_KEY: 'x' }, ...extra });

/** Numbered file lines (`12| …`) under each `## path` header of the evaluate prompts. */
function linesShown(requests: RecordedRequest[]): Map<string, Set<number>> {
  const shown = new Map<string, Set<number>>();
  for (const request of requests.filter((r) => r.schemaName === 'report_scores')) {
    let path: string | undefined;
    for (const line of request.prompt.split('\n')) {
      const header = /^## (\S+)/.exec(line);
      if (header) path = header[1];
      const numbered = /^(\d+)\| /.exec(line);
      if (path && numbered) {
        if (!shown.has(path)) shown.set(path, new Set());
        shown.get(path)!.add(Number(numbered[1]));
      }
    }
  }
  return shown;
}

describe('egress manifest', () => {
  it('lists every file line the model was shown, with the calls and bytes it received', async () => {
    const before = stub.requests.length;
    const result = await retrieve(TASK, withModel());
    const sent = stub.requests.slice(before);
    expect(result.egress).toHaveLength(1);
    const [egress] = result.egress!;
    expect(egress).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini', calls: sent.length });
    // bytes are the prompts' own (the stub sees them inside a JSON body, escaped, so a little more)
    const promptBytes = sent.reduce((sum, r) => sum + Buffer.byteLength(r.prompt), 0);
    expect(egress!.bytes).toBeGreaterThan(0);
    expect(egress!.bytes).toBeLessThanOrEqual(promptBytes);
    const listed = new Map(egress!.files.map((f) => [f.path, f]));
    const shown = linesShown(sent);
    expect(shown.get('src/auth/verify.ts')?.has(4)).toBe(true);
    for (const [path, lines] of shown) {
      const file = listed.get(path);
      expect(file, path).toBeDefined();
      for (const line of lines) expect(file!.ranges.some((r) => r.start <= line && line <= r.end), `${path}:${line}`).toBe(true);
      expect(file!.bytes).toBeGreaterThan(0);
    }
    // and nothing is listed that no request named
    for (const file of egress!.files) expect(sent.some((r) => r.prompt.includes(file.path)), file.path).toBe(true);
  });

  it("counts the SDK's own retries as attempts beside the calls", async () => {
    for (const provider of ['openai', 'anthropic'] as const) {
      const env = provider === 'openai' ? { OPENAI_BASE_URL: stub.openaiURL, OPENAI_API_KEY: 'x' } : { ANTHROPIC_BASE_URL: stub.url, ANTHROPIC_API_KEY: 'x' };
      // the first request is refused with a 429 and retried by the SDK after retry-after
      stub.script({ status: 429, headers: { 'retry-after-ms': '10', 'retry-after': '0' } });
      const before = stub.requests.length;
      const result = await retrieve(TASK, withModel({ maxRetries: 2, env, provider }));
      const received = stub.requests.length - before;
      const [egress] = result.egress!;
      expect(result.provider).toBe(provider);
      expect(egress!.attempts, provider).toBe(received);
      expect(egress!.calls, provider).toBe(received - 1);
    }
  });

  it('says explicitly that nothing was sent when every answer came from the cache', async () => {
    const cache = tempDir();
    await retrieve(TASK, withModel({ cache }));
    const before = stub.requests.length;
    const warm = await retrieve(TASK, withModel({ cache }));
    expect(stub.requests.length).toBe(before);
    expect(warm.egress).toEqual([{ provider: 'openai', model: 'gpt-4.1-mini', calls: 0, attempts: 0, bytes: 0, files: [] }]);
  });

  it('is absent from an offline run', async () => {
    const result = await retrieve(TASK, { root: repo.root, cache: false, provider: 'offline' });
    expect(result.egress).toBeUndefined();
  });

  it('merges line numbers into ranges', () => {
    expect(toRanges([7, 3, 4, 5, 9, 8, 1, 4])).toEqual([
      { start: 1, end: 1 },
      { start: 3, end: 5 },
      { start: 7, end: 9 },
    ]);
  });
});

describe('noEgress', () => {
  it('refuses a run with a model before anything is sent, whichever source asks for it', async () => {
    const before = stub.requests.length;
    await expect(retrieve(TASK, withModel({ noEgress: true }))).rejects.toMatchObject({ name: 'UsageError', code: 'egress_refused' });
    await expect(retrieve(TASK, withModel({ env: { OPENAI_BASE_URL: stub.openaiURL, CTXLOOP_NO_EGRESS: '1' } }))).rejects.toMatchObject({ code: 'egress_refused' });
    // a config file can tighten, and an explicit `false` elsewhere does not loosen it
    const configured = emailRepo();
    try {
      writeFileSync(join(configured.root, '.ctxloop.json'), JSON.stringify({ noEgress: true }));
      await expect(retrieve(TASK, { ...withModel({ noEgress: false }), root: configured.root })).rejects.toMatchObject({ code: 'egress_refused' });
    } finally {
      configured.cleanup();
    }
    expect(stub.requests.length).toBe(before);
  });

  it('leaves an offline run alone', async () => {
    const result = await retrieve(TASK, { root: repo.root, cache: false, noEgress: true, env: {} });
    expect(result.provider).toBe('offline');
    expect(result.files.map((f) => f.path)).toContain('src/auth/verify.ts');
    expect(result.egress).toBeUndefined();
  });

  it('makes the guard refuse a send outright (the second lock), without a fallback', async () => {
    let called = 0;
    const model: ChatModel = { provider: 'openai', model: 'm', complete: async () => ((called += 1), { text: '{}', inputTokens: 0, outputTokens: 0 }) };
    const guarded = guardModel(model, { deadline: 1000, noEgress: true });
    await expect(guarded.complete({ role: 'evaluate', prompt: 'x', schema: { name: 's', description: '', json: {} }, maxTokens: 10 })).rejects.toMatchObject({ name: 'UsageError', code: 'egress_refused' });
    expect(called).toBe(0);
  });
});

describe.runIf(existsSync(BIN))('--no-egress on the command line', () => {
  const run = (args: string[], env: Record<string, string>) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
      execFile(process.execPath, [BIN, ...args], { env: { ...clean, NO_COLOR: '1', ...env } }, (error, stdout, stderr) => done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    });

  it('fails with exit 2, one line and a JSON error, and sends nothing', async () => {
    const before = stub.requests.length;
    const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--no-cache', '--json', '--no-egress'], { OPENAI_BASE_URL: stub.openaiURL });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('egress_refused');
    expect(r.stderr).toMatch(/^ctxloop: --no-egress: a model is configured \(openai/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(stub.requests.length).toBe(before);
  });

  it('prints the manifest in the JSON result and the pack footer when a model was used', async () => {
    const json = await run(['retrieve', '--root', repo.root, '--task', TASK, '--no-cache', '--json'], { OPENAI_BASE_URL: stub.openaiURL });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).egress[0].files.map((f: { path: string }) => f.path)).toContain('src/auth/verify.ts');
    const md = await run(['retrieve', '--root', repo.root, '--task', TASK, '--no-cache'], { OPENAI_BASE_URL: stub.openaiURL });
    expect(md.stdout).toMatch(/sent to openai: \d+ files?, \d+ bytes/);
  });
});
