/** The provider files against a stub server, through the real SDK clients (never mocked). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatModel } from '../../src/core/deps.js';
import { createAnthropicModel } from '../../src/evaluate/anthropic.js';
import { createOpenAIModel } from '../../src/evaluate/openai.js';
import { EVALUATE_SCHEMA, evaluateReplySchema } from '../../src/evaluate/schema.js';
import { guardModel } from '../../src/llm/guard.js';
import { completeStructured } from '../../src/llm/structured.js';
import { startStubLlm, type StubLlm } from '../helpers/stub-llm.js';

let stub: StubLlm;
beforeEach(async () => {
  stub = await startStubLlm();
});
afterEach(() => stub.close());

const models: Record<string, (options?: { timeout?: number; maxRetries?: number }) => ChatModel> = {
  anthropic: (o = {}) => createAnthropicModel({ apiKey: 'test-key', baseURL: stub.url, timeout: o.timeout ?? 5000, maxRetries: o.maxRetries ?? 2 }),
  openai: (o = {}) => createOpenAIModel({ apiKey: 'test-key', baseURL: stub.openaiURL, timeout: o.timeout ?? 5000, maxRetries: o.maxRetries ?? 2 }),
};

const request = { role: 'evaluate', prompt: '## src/a.ts\n1| export function a() {}', schema: EVALUATE_SCHEMA, maxTokens: 500 };
const good = { scores: [{ path: 'src/a.ts', relevance: 0.9, reason: 'defines a', missing: [] }] };

describe.each(['anthropic', 'openai'])('%s provider', (api) => {
  it('sends the model, max_tokens and the reply schema, and counts usage from the reply', async () => {
    stub.script({ json: good });
    const result = await completeStructured(models[api]!(), request, evaluateReplySchema);
    expect(result).toMatchObject({ ok: true, value: good });
    const [sent] = stub.requests;
    expect(sent!.body.model).toBe(api === 'anthropic' ? 'claude-haiku-4-5' : 'gpt-4.1-mini');
    expect(sent!.body.max_tokens).toBe(500);
    if (api === 'anthropic') {
      expect(sent!.body.tools[0]).toMatchObject({ name: 'report_scores', input_schema: { type: 'object', required: ['scores'] } });
      expect(sent!.body.tool_choice).toEqual({ type: 'tool', name: 'report_scores' });
    } else {
      expect(sent!.body.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'report_scores', strict: true, schema: { type: 'object' } } });
    }
    expect(result.usage.llmCalls).toBe(1);
    expect(result.usage.inputTokens).toBeGreaterThan(10);
    expect(result.usage.outputTokens).toBeGreaterThan(5);
  });

  it('reads fenced JSON from a server without structured output', async () => {
    stub.script({ text: 'Here you go:\n```json\n' + JSON.stringify(good) + '\n```' });
    expect(await completeStructured(models[api]!(), request, evaluateReplySchema)).toMatchObject({ ok: true, value: good });
  });

  it('repairs a truncated reply once, telling the model what was wrong', async () => {
    stub.script({ text: '{"scores":[{"path":"src/a.ts","relev' }, { json: good });
    const result = await completeStructured(models[api]!(), request, evaluateReplySchema);
    expect(result).toMatchObject({ ok: true, value: good, usage: { llmCalls: 2 } });
    expect(stub.requests[1]!.prompt).toContain('not valid JSON');
    expect(stub.requests[1]!.body.messages).toHaveLength(3);
  });

  it('gives up after one repair of a reply with the wrong schema', async () => {
    stub.script({ json: { files: [] } }, { json: { scores: [{ path: 'src/a.ts', relevance: 7, reason: 'x', missing: [] }] } });
    const result = await completeStructured(models[api]!(), request, evaluateReplySchema);
    expect(result.ok).toBe(false);
    expect(stub.requests).toHaveLength(2);
  });

  it('retries a 429 after retry-after, inside the SDK', async () => {
    stub.script({ status: 429, headers: { 'retry-after-ms': '30', 'retry-after': '1' } }, { json: good });
    expect(await completeStructured(models[api]!(), request, evaluateReplySchema)).toMatchObject({ ok: true });
    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[1]!.headers['x-stainless-retry-count']).toBe('1');
  });

  it.each([
    [401, 'auth_failed', 1],
    [403, 'auth_failed', 1],
    [500, 'provider_error', 2],
    [429, 'rate_limited', 2],
  ])('maps HTTP %i to %s after %i request(s)', async (status, code, requests) => {
    stub.script(...Array.from({ length: 3 }, () => ({ status, headers: { 'retry-after-ms': '10' } })));
    await expect(models[api]!({ maxRetries: 1 }).complete(request)).rejects.toMatchObject({ name: 'ProviderError', code, status, provider: api });
    expect(stub.requests).toHaveLength(requests);
  });

  it('maps a slow reply to timeout', async () => {
    stub.script({ delay: 2000, then: { json: good } });
    await expect(models[api]!({ timeout: 150, maxRetries: 0 }).complete(request)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('maps a server that is down to unreachable', async () => {
    await stub.close();
    await expect(models[api]!({ maxRetries: 0 }).complete(request)).rejects.toMatchObject({ code: 'unreachable' });
  });

  it('cancels an in-flight call on abort, and a run past its deadline is a timeout', async () => {
    stub.script({ delay: 2000, then: { json: good } }, { delay: 2000, then: { json: good } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(models[api]!().complete(request, controller.signal)).rejects.toMatchObject({ code: 'aborted' });
    const guarded = guardModel(models[api]!(), { deadline: 100 });
    await expect(guarded.complete(request)).rejects.toMatchObject({ name: 'ProviderError', code: 'timeout' });
  });
});

describe.each(['anthropic', 'openai'])('%s provider, a server that misbehaves', (api) => {
  const offlineAfter = async (model: ChatModel): Promise<unknown> => completeStructured(model, request, evaluateReplySchema).then(
    (r) => r,
    (e: unknown) => e,
  );

  it.each([
    ['a body of null (OpenAI asked again 59,000 times in two minutes)', null],
    ['an array', []],
    ['content that is a string', { content: 'x', choices: 'x' }],
    ['a tool call without input, content of numbers', { content: [{ type: 'tool_use', id: 't', name: 'report_scores' }], choices: [{ message: { content: 42 } }] }],
    ['content parts of the wrong shape', { content: [null, 5, { type: 'text', text: 7 }], choices: [{ message: { content: { scores: 'no' } } }] }],
  ])('answered with %s: no crash, one request, no usable reply', async (_, body) => {
    stub.script({ status: 200, body }, { status: 200, body });
    const outcome = await offlineAfter(models[api]!({ maxRetries: 0 }));
    // a provider error (the run goes on offline), or a reply the repair turn could not mend: never a TypeError
    expect(outcome instanceof TypeError).toBe(false);
    expect(outcome).toSatisfy((o: unknown) => (o as { code?: string }).code === 'provider_error' || (o as { ok?: boolean }).ok === false);
    expect(stub.requests.length).toBeLessThanOrEqual(2);
  });

  it('does not wait an hour a 429 asks for: fails at once as rate-limited (OpenAI slept, deaf to the deadline and Ctrl-C)', async () => {
    for (const headers of [{ 'retry-after': '3600' }, { 'retry-after-ms': '99999999' }, { 'retry-after': 'Wed, 21 Oct 2099 07:28:00 GMT' }]) {
      stub.requests.length = 0;
      stub.script({ status: 429, headers });
      const started = Date.now();
      const outcome = await offlineAfter(models[api]!({ maxRetries: 2 }));
      expect(Date.now() - started).toBeLessThan(5000);
      expect(outcome).toMatchObject({ code: 'rate_limited' });
      expect(stub.requests).toHaveLength(1);
    }
  });

  it('bounds the whole reply by the timeout: a body that never ends is a timeout (it held the run until its deadline)', async () => {
    stub.script({ endless: true });
    const started = Date.now();
    const outcome = await offlineAfter(models[api]!({ timeout: 800, maxRetries: 0 }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome).toMatchObject({ code: 'timeout' });
  });

  it('reads no reply past 8 MB: a provider error, not a body read whole (300 MB took the process to 3.5 GB)', async () => {
    stub.script({ status: 200, body: { padding: 'x'.repeat(40 * 1024 * 1024) } });
    const before = process.memoryUsage().rss;
    const outcome = await offlineAfter(models[api]!({ maxRetries: 0 }));
    expect(outcome).toMatchObject({ code: 'provider_error' });
    expect(String((outcome as Error).message)).toMatch(/larger than 8 MB/);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('answered with JSON nested 10,000 deep: a provider error, not a crash (JSON.stringify overflowed the stack)', async () => {
    const nested = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const raw = api === 'anthropic' ? `{"content":[{"type":"tool_use","id":"t","name":"report_scores","input":{"scores":${nested}}}],"usage":{"input_tokens":1,"output_tokens":1}}` : `{"choices":[{"message":{"role":"assistant","content":{"scores":${nested}}},"finish_reason":"stop"}]}`;
    stub.script({ raw }, { raw });
    const outcome = await offlineAfter(models[api]!({ maxRetries: 0 }));
    expect(outcome).toMatchObject({ code: 'provider_error' });
    expect(String((outcome as Error).message)).toMatch(/nested too deep/);
  });

  it('reads a token count as a bounded whole number (1e308 summed to Infinity, written as null)', async () => {
    const raw = api === 'anthropic' ? JSON.stringify({ content: [{ type: 'tool_use', id: 't', name: 'report_scores', input: good }], usage: { input_tokens: 1e308, output_tokens: 2.6 } }) : JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(good) }, finish_reason: 'stop' }], usage: { prompt_tokens: 1e308, completion_tokens: 2.6 } });
    stub.script({ raw });
    const result = await completeStructured(models[api]!(), request, evaluateReplySchema);
    expect(result).toMatchObject({ ok: true, usage: { inputTokens: 100_000_000, outputTokens: 3 } });
  });

  it("cuts a server's error message to one short line (a megabyte of it was echoed whole)", async () => {
    stub.script({ status: 404, body: api === 'anthropic' ? { type: 'error', error: { type: 'not_found_error', message: `\u001b[31m${'A'.repeat(1_000_000)}` } } : { error: { message: `\u001b[31m${'A'.repeat(1_000_000)}`, type: 'invalid_request_error', code: null } } });
    const outcome = await offlineAfter(models[api]!({ maxRetries: 0 }));
    expect(outcome).toMatchObject({ code: 'provider_error' });
    expect(String((outcome as Error).message).length).toBeLessThan(700);
  });

  it('follows no redirect: the prompt is not sent to a host nobody configured', async () => {
    const elsewhere = await startStubLlm();
    try {
      stub.script({ status: 307, headers: { location: `${api === 'anthropic' ? elsewhere.url : elsewhere.openaiURL}${api === 'anthropic' ? '/v1/messages' : '/chat/completions'}` }, body: {} });
      const outcome = await offlineAfter(models[api]!({ maxRetries: 0 }));
      expect(elsewhere.requests).toHaveLength(0);
      expect(outcome).toMatchObject({ code: 'provider_error' });
    } finally {
      await elsewhere.close();
    }
  });

  it('reads a reply whose reason quotes a code fence (the fence inside the JSON string cut it: every batch was lost)', async () => {
    const fenced = { scores: [{ path: 'src/a.ts', relevance: 0.9, reason: '```', missing: [] }, { path: 'src/b.ts', relevance: 0.2, reason: 'other', missing: [] }] };
    stub.script({ json: fenced });
    expect(await completeStructured(models[api]!(), request, evaluateReplySchema)).toMatchObject({ ok: true, value: fenced });
  });

  it('reads at most 200,000 characters of a reply, and echoes at most 4,000 of a bad one (50 MB crashed the masking; 5 MB went back with each repair)', async () => {
    stub.script({ text: `{"scores": "${'word '.repeat(1_200_000)}` }, { json: good });
    const result = await completeStructured(guardModel(models[api]!(), { deadline: 30_000 }), request, evaluateReplySchema);
    expect(result).toMatchObject({ ok: true, value: good });
    expect(stub.requests[1]!.raw.length).toBeLessThan(20_000);
  });
});

describe('openai-compatible servers', () => {
  const openaiModel = (model: string): ChatModel => createOpenAIModel({ apiKey: 'test-key', baseURL: stub.openaiURL, model, timeout: 5000, maxRetries: 0 });
  const unsupported = (param: string) => ({ status: 400, body: { error: { message: `Unsupported parameter: '${param}' is not supported with this model.`, type: 'invalid_request_error', param, code: 'unsupported_parameter' } } });

  it.each(['o3-mini', 'o1', 'gpt-5-mini', 'openai/o4-mini'])('sends %s max_completion_tokens and no temperature', async (name) => {
    stub.script({ json: good });
    expect(await completeStructured(openaiModel(name), request, evaluateReplySchema)).toMatchObject({ ok: true });
    expect(stub.requests[0]!.body).toMatchObject({ model: name, max_completion_tokens: 500 });
    expect(stub.requests[0]!.body).not.toHaveProperty('max_tokens');
    expect(stub.requests[0]!.body).not.toHaveProperty('temperature');
  });

  it('sends other models max_tokens and temperature 0', async () => {
    stub.script({ json: good });
    await completeStructured(openaiModel('qwen2.5-coder:7b'), request, evaluateReplySchema);
    expect(stub.requests[0]!.body).toMatchObject({ max_tokens: 500, temperature: 0 });
    expect(stub.requests[0]!.body).not.toHaveProperty('max_completion_tokens');
  });

  it('switches to max_completion_tokens once a server asks for it, keeps the schema, and remembers', async () => {
    stub.script(unsupported('max_tokens'), { json: good }, { json: good });
    const model = openaiModel('my-reasoner');
    expect(await completeStructured(model, request, evaluateReplySchema)).toMatchObject({ ok: true, usage: { llmCalls: 1 } });
    expect(await completeStructured(model, request, evaluateReplySchema)).toMatchObject({ ok: true });
    expect(stub.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens, r.body.response_format?.type])).toEqual([
      [500, undefined, 'json_schema'],
      [undefined, 500, 'json_schema'],
      [undefined, 500, 'json_schema'],
    ]);
  });

  it('drops temperature when a server refuses it, and gives up when the switched parameter is refused too', async () => {
    stub.script({ status: 400, body: { error: { message: "Unsupported value: 'temperature' does not support 0 with this model.", param: 'temperature' } } }, { json: good });
    expect(await completeStructured(openaiModel('gpt-4o-mini'), request, evaluateReplySchema)).toMatchObject({ ok: true });
    expect(stub.requests.map((r) => r.body.temperature ?? null)).toEqual([0, null]);
    stub.script(unsupported('max_completion_tokens'), unsupported('max_tokens'));
    await expect(openaiModel('o3').complete(request)).rejects.toMatchObject({ code: 'provider_error', status: 400 });
    expect(stub.requests.slice(2).map((r) => (r.body.max_tokens ? 'max_tokens' : 'max_completion_tokens'))).toEqual(['max_completion_tokens', 'max_tokens']);
  });

  it('asks again without response_format when the server rejects it, and remembers', async () => {
    stub.script({ status: 400, body: { error: { message: 'response_format is not supported' } } }, { text: JSON.stringify(good) }, { text: JSON.stringify(good) });
    const model = models.openai!();
    expect(await completeStructured(model, request, evaluateReplySchema)).toMatchObject({ ok: true });
    expect(await completeStructured(model, request, evaluateReplySchema)).toMatchObject({ ok: true });
    expect(stub.requests.map((r) => r.body.response_format?.type ?? null)).toEqual(['json_schema', null, null]);
  });
});
