/**
 * A model server for tests: node:http on 127.0.0.1, port 0, speaking Anthropic `POST /v1/messages`
 * and OpenAI `POST /v1/chat/completions` with scripted replies. The real SDK clients talk to it.
 * Usage fields count the prompt with the project's tokenizer (o200k), so token accounting is real
 * arithmetic over what ctxloop sends, not a made-up number.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTokenizer } from '../../src/pack/tokens.js';

export type Api = 'anthropic' | 'openai';

export interface RecordedRequest {
  api: Api;
  path: string;
  headers: IncomingMessage['headers'];
  /** The parsed JSON body. */
  body: any;
  /** The raw body text (what a secret scan should look at). */
  raw: string;
  /** The schema name asked for: the Anthropic tool's name or the OpenAI `json_schema` name (absent without one). */
  schemaName: string | undefined;
  /** The user turns' text, joined. */
  prompt: string;
}

export type Reply =
  /** Structured output: a tool call (Anthropic) or JSON content (OpenAI). */
  | { json: unknown }
  /** Raw text content, e.g. fenced or truncated JSON. */
  | { text: string }
  | { status: number; headers?: Record<string, string>; body?: unknown }
  /** Waits, then answers with `then` (the client may have given up by then). */
  | { delay: number; then: Reply }
  /** A 200 whose body never ends: a byte every 50 ms until the client hangs up. */
  | { endless: true }
  /** A body sent as written (JSON too deep for this process to stringify, say). */
  | { raw: string; status?: number }
  | ((request: RecordedRequest) => Reply);

export interface StubLlm {
  /** `http://127.0.0.1:PORT`: ANTHROPIC_BASE_URL. */
  url: string;
  /** `http://127.0.0.1:PORT/v1`: OPENAI_BASE_URL. */
  openaiURL: string;
  requests: RecordedRequest[];
  /** Queues replies, used in order; once they run out, `auto` answers. */
  script(...replies: Reply[]): void;
  close(): Promise<void>;
}

const tokenizer = createTokenizer();

/** Starts a stub; `auto` answers whatever the script does not (default: every candidate scores 0.8). */
export async function startStubLlm(auto: (request: RecordedRequest) => Reply = autoReply()): Promise<StubLlm> {
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const api: Api | undefined = req.url === '/v1/messages' ? 'anthropic' : req.url === '/v1/chat/completions' ? 'openai' : undefined;
      if (req.method !== 'POST' || !api) return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      const body = JSON.parse(raw);
      const request: RecordedRequest = { api, path: req.url!, headers: req.headers, body, raw, schemaName: schemaNameOf(api, body), prompt: promptOf(body) };
      requests.push(request);
      void answer(res, request, queue.shift() ?? auto);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    openaiURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...replies) => void queue.push(...replies),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

async function answer(res: ServerResponse, request: RecordedRequest, reply: Reply): Promise<void> {
  if (typeof reply === 'function') return answer(res, request, reply(request));
  const resolved = reply;
  if ('delay' in resolved) {
    await new Promise((done) => setTimeout(done, resolved.delay));
    if (res.destroyed || res.socket?.destroyed) return; // the client gave up
    return answer(res, request, resolved.then);
  }
  if ('endless' in resolved) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"id":"x","choices":[');
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50);
    res.on('close', () => clearInterval(timer));
    return;
  }
  if ('raw' in resolved) {
    res.writeHead(resolved.status ?? 200, { 'content-type': 'application/json' });
    res.end(resolved.raw);
    return;
  }
  if ('status' in resolved) return send(res, resolved.status, resolved.body ?? errorBody(request.api, resolved.status), resolved.headers);
  const text = 'json' in resolved ? JSON.stringify(resolved.json) : resolved.text;
  const usage = { input: tokenizer.count(request.prompt), output: tokenizer.count(text) };
  const model = request.body.model;
  if (request.api === 'anthropic') {
    const content = 'json' in resolved ? [{ type: 'tool_use', id: 'toolu_stub', name: request.schemaName ?? 'tool', input: resolved.json }] : [{ type: 'text', text, citations: null }];
    return send(res, 200, { id: 'msg_stub', type: 'message', role: 'assistant', model, content, stop_reason: 'json' in resolved ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: usage.output } });
  }
  send(res, 200, {
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function errorBody(api: Api, status: number): unknown {
  const type = status === 401 ? 'authentication_error' : status === 429 ? 'rate_limit_error' : 'api_error';
  return api === 'anthropic' ? { type: 'error', error: { type, message: `stub ${status}` } } : { error: { message: `stub ${status}`, type, code: null } };
}

function schemaNameOf(api: Api, body: any): string | undefined {
  return api === 'anthropic' ? body.tool_choice?.name : body.response_format?.json_schema?.name;
}

function promptOf(body: any): string {
  return (body.messages as Array<{ role: string; content: unknown }>)
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
}

/** The paths a rendered `evaluate` prompt lists (`## path` headers). */
export function candidatePaths(prompt: string): string[] {
  return [...prompt.matchAll(/^## (\S+)/gm)].map((m) => m[1]!);
}

/**
 * Good answers for every role: scores for each listed candidate (`relevance(path)`, default
 * 0.8), an empty plan, a scout that is done at once.
 */
export function autoReply(relevance: (path: string) => number = () => 0.8): (request: RecordedRequest) => Reply {
  return (request) => {
    const schema = request.schemaName ?? guessSchema(request.prompt);
    if (schema === 'report_scores') return { json: { scores: candidatePaths(lastUserTurn(request)).map((path) => ({ path, relevance: relevance(path), reason: 'stub verdict', missing: [] })) } };
    if (schema === 'report_query') return { json: { keywords: [], patterns: [], excludes: [], focusAreas: [] } };
    return { json: { actions: [], found: [], done: true } };
  };
}

function lastUserTurn(request: RecordedRequest): string {
  const first = request.body.messages[0];
  return typeof first.content === 'string' ? first.content : JSON.stringify(first.content);
}

// Without a schema (a server that ignores response_format), tell the roles apart by their prompts.
function guessSchema(prompt: string): string {
  if (prompt.includes('<candidates>')) return 'report_scores';
  if (prompt.includes('<goal>')) return 'next_step';
  return 'report_query';
}
