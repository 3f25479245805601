/** The built binary driving a stub model server through the environment, as a user would. */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TempRepo } from '../helpers/make-repo.js';
import { autoReply, startStubLlm, type StubLlm } from '../helpers/stub-llm.js';
import { emailRepo, SECRETS } from './fixture.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');
const TASK = 'verifyEmail accepts addresses without a domain';

function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  // Only what the test sets: a developer's own keys must not leak into (or steer) the run.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...clean, NO_COLOR: '1', ...env } }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.runIf(existsSync(BIN))('ctxloop retrieve with a model server', () => {
  let repo: TempRepo;
  let stub: StubLlm;
  beforeAll(async () => {
    repo = emailRepo();
    stub = await startStubLlm(autoReply((path) => (path === 'src/auth/verify.ts' ? 0.95 : 0.2)));
  });
  afterAll(async () => {
    await stub.close();
    repo.cleanup();
  });

  it.each([
    ['openai', () => ({ OPENAI_BASE_URL: stub.openaiURL, OPENAI_API_KEY: 'x' })],
    ['anthropic', () => ({ ANTHROPIC_BASE_URL: stub.url, ANTHROPIC_API_KEY: 'x' })],
  ])('reports provider %s and real usage', async (provider, env) => {
    const before = stub.requests.length;
    const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--no-cache'], env());
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.provider).toBe(provider);
    expect(result.fallback).toBeUndefined();
    expect(result.usage.llmCalls).toBe(stub.requests.length - before);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.files.map((f: { path: string }) => f.path)).toEqual(['src/auth/verify.ts']);
    expect(r.stderr).toContain(`provider: ${provider}`);
    for (const request of stub.requests) for (const secret of SECRETS) expect(request.raw).not.toContain(secret);
  });

  it('exits 0 with the offline result and fallback.reason when the server is down', async () => {
    const down = await startStubLlm();
    const url = down.openaiURL;
    await down.close();
    const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--no-cache'], { OPENAI_BASE_URL: url, OPENAI_API_KEY: 'x' });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result).toMatchObject({ provider: 'offline', fallback: { reason: 'unreachable' } });
    expect(result.files[0].path).toBe('src/auth/verify.ts');
    expect(r.stderr).toMatch(/warning: .*unreachable.*continuing offline/);
  });

  it('--provider offline ignores configured keys', async () => {
    const before = stub.requests.length;
    const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--no-cache', '--provider', 'offline'], { OPENAI_BASE_URL: stub.openaiURL });
    expect(JSON.parse(r.stdout).provider).toBe('offline');
    expect(stub.requests.length).toBe(before);
  });
});
