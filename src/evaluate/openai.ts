import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, BadRequestError } from 'openai';
import type { ChatModel, ModelReply, ModelRequest } from '../core/deps.js';
import { abortError, ProviderError } from '../core/errors.js';
import { isTimeoutAbort, providerFetch } from '../llm/attempts.js';
import { clipReply, count, repairMessage, replyJson } from '../llm/structured.js';
import { describeStatus } from './provider-errors.js';
import { OPENAI_DEFAULT_MODEL } from './defaults.js';

export interface OpenAIModelOptions {
  /** A local server (Ollama, llama.cpp) takes any key; a placeholder is sent then. */
  apiKey: string;
  /** `OPENAI_BASE_URL`: any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter). */
  baseURL?: string | undefined;
  model?: string | undefined;
  /** Milliseconds per request (the SDK applies it to each attempt). */
  timeout: number;
  /** Retries the SDK makes on 408/409/429/5xx and network errors, honouring `retry-after`. */
  maxRetries: number;
}

/**
 * o-series and gpt-5 models (also behind a router prefix, `openai/o3-mini`) reject `max_tokens`
 * for `max_completion_tokens` and take only the default temperature.
 */
export function isReasoningModel(model: string): boolean {
  const name = (model.split('/').pop() ?? model).toLowerCase();
  return /^(?:o\d|gpt-5)/.test(name);
}

/** How a request is sent; a server's 400 about one of these changes it for the calls after. */
interface Shape {
  tokens: 'max_tokens' | 'max_completion_tokens';
  temperature: boolean;
  schema: boolean;
}

/**
 * The only file that imports `openai`. Structured output through `response_format` with a JSON
 * schema; a server that rejects that (HTTP 400 on the first call) is asked again without it, and
 * from then on the prompt alone asks for JSON, which `llm/json.ts` reads fenced or not. The
 * output limit goes as `max_tokens`, or `max_completion_tokens` for reasoning models; a 400
 * naming the one sent (or `temperature`) switches it once, the same way.
 */
export function createOpenAIModel(options: OpenAIModelOptions): ChatModel {
  // a little past the SDK's own timeout, which ends at the headers: its message names the first phase
  const counted = providerFetch(options.timeout + 1000);
  const client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL ?? null, timeout: options.timeout, maxRetries: options.maxRetries, fetch: counted.fetch });
  const model = options.model ?? OPENAI_DEFAULT_MODEL;
  const reasoning = isReasoningModel(model);
  let shape: Shape = { tokens: reasoning ? 'max_completion_tokens' : 'max_tokens', temperature: !reasoning, schema: true };
  let schemaKnown = false;

  const send = async (request: ModelRequest, sent: Shape, signal: AbortSignal | undefined): Promise<OpenAI.ChatCompletion> => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: request.prompt }];
    if (request.repair) messages.push({ role: 'assistant', content: request.repair.reply || '(empty reply)' }, { role: 'user', content: repairMessage(request.repair.problem) });
    const body: OpenAI.ChatCompletionCreateParamsNonStreaming = { model, messages };
    body[sent.tokens] = request.maxTokens;
    if (sent.temperature) body.temperature = 0;
    if (sent.schema) body.response_format = { type: 'json_schema', json_schema: { name: request.schema.name, description: request.schema.description, schema: request.schema.json, strict: true } };
    return client.chat.completions.create(body, signal ? { signal } : {});
  };

  /** What a 400 asks to change in the shape that was sent, unless this call changed it already. */
  const adjust = (error: InstanceType<typeof BadRequestError>, sent: Shape, changed: Set<keyof Shape>): Partial<Shape> | undefined => {
    // OpenAI names the parameter in `param`; other servers only in the message.
    const said = error.param ?? error.message;
    if (/max_(?:completion_)?tokens/.test(said)) return !changed.has('tokens') && said.includes(sent.tokens) ? { tokens: sent.tokens === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens' } : undefined;
    if (said.includes('temperature')) return !changed.has('temperature') && sent.temperature ? { temperature: false } : undefined;
    // Any other 400 on the first call: a server without `response_format`.
    return !changed.has('schema') && sent.schema && !schemaKnown ? { schema: false } : undefined;
  };

  return {
    provider: 'openai',
    model,
    attempts: counted.attempts,
    async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
      let completion: unknown;
      // Each kind of change at most once per call, so a server that keeps refusing ends it.
      const changed = new Set<keyof Shape>();
      for (let answered = false; !answered; ) {
        const sent = shape;
        try {
          completion = await send(request, sent, signal);
          answered = true;
          if (sent.schema) schemaKnown = true;
        } catch (error) {
          const change = error instanceof BadRequestError ? adjust(error, sent, changed) : undefined;
          if (!change) throw toProviderError(error, model);
          for (const key of Object.keys(change) as Array<keyof Shape>) changed.add(key);
          // Onto the current shape: a concurrent call may have learned something meanwhile.
          shape = { ...shape, ...change };
        }
      }
      return readCompletion(completion, model);
    },
  };
}

/**
 * The reply's text and usage, whatever the server sent: a body of `null` (it was taken for no
 * answer yet, and asked again 59,000 times in two minutes), content that is not a string (an
 * object, a number: a crash where the text was read), content parts. Anything else is no reply.
 */
function readCompletion(completion: unknown, model: string): ModelReply {
  const body = completion as { choices?: Array<{ message?: { content?: unknown } }>; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | null;
  if (typeof body !== 'object' || body === null || !Array.isArray(body.choices)) throw new ProviderError('provider_error', `openai sent no completion (model ${model})`, { provider: 'openai' });
  const content = body.choices[0]?.message?.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('') : content == null ? '' : replyJson(content);
  if (text === undefined) throw new ProviderError('provider_error', `openai sent content nested too deep to read (model ${model})`, { provider: 'openai' });
  return { text: clipReply(text), inputTokens: count(body.usage?.prompt_tokens), outputTokens: count(body.usage?.completion_tokens) };
}

/** SDK errors mapped once: 401/403 auth, 429 rate, ≥500 provider, connection, timeout. */
function toProviderError(error: unknown, model: string): Error {
  if (error instanceof APIUserAbortError) return abortError();
  const provider = 'openai';
  if (error instanceof APIConnectionTimeoutError || isTimeoutAbort(error)) return new ProviderError('timeout', `openai did not answer in time (model ${model})`, { provider, retryable: true, cause: error });
  if (error instanceof APIConnectionError) return new ProviderError('unreachable', `openai server is unreachable: ${error.message.split('\n')[0]}`, { provider, retryable: true, cause: error, hint: 'check OPENAI_BASE_URL and that the server runs' });
  if (error instanceof APIError && typeof error.status === 'number') return describeStatus(provider, error.status, model, error);
  return new ProviderError('provider_error', `openai failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, { provider, cause: error });
}
