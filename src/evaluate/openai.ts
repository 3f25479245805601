import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, BadRequestError } from 'openai';
import type { ChatModel, ModelReply, ModelRequest } from '../core/deps.js';
import { abortError, ProviderError } from '../core/errors.js';
import { repairMessage } from '../llm/structured.js';
import { describeStatus } from './provider-errors.js';

/** Small and fast: judging signatures needs no large model. */
export const OPENAI_DEFAULT_MODEL = 'gpt-4.1-mini';

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
 * The only file that imports `openai`. Structured output through `response_format` with a JSON
 * schema; a server that rejects that (HTTP 400 on the first call) is asked again without it, and
 * from then on the prompt alone asks for JSON, which `llm/json.ts` reads fenced or not.
 */
export function createOpenAIModel(options: OpenAIModelOptions): ChatModel {
  const client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseURL ?? null, timeout: options.timeout, maxRetries: options.maxRetries });
  const model = options.model ?? OPENAI_DEFAULT_MODEL;
  let schemaSupported: boolean | undefined;

  const send = async (request: ModelRequest, withSchema: boolean, signal: AbortSignal | undefined): Promise<OpenAI.ChatCompletion> => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: request.prompt }];
    if (request.repair) messages.push({ role: 'assistant', content: request.repair.reply || '(empty reply)' }, { role: 'user', content: repairMessage(request.repair.problem) });
    const body: OpenAI.ChatCompletionCreateParamsNonStreaming = { model, max_tokens: request.maxTokens, messages, temperature: 0 };
    if (withSchema) body.response_format = { type: 'json_schema', json_schema: { name: request.schema.name, description: request.schema.description, schema: request.schema.json, strict: true } };
    return client.chat.completions.create(body, signal ? { signal } : {});
  };

  return {
    provider: 'openai',
    model,
    async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
      let completion: OpenAI.ChatCompletion;
      try {
        try {
          completion = await send(request, schemaSupported !== false, signal);
          schemaSupported ??= true;
        } catch (error) {
          if (!(error instanceof BadRequestError) || schemaSupported !== undefined) throw error;
          schemaSupported = false;
          completion = await send(request, false, signal);
        }
      } catch (error) {
        throw toProviderError(error, model);
      }
      const text = completion.choices?.[0]?.message?.content ?? '';
      return { text, inputTokens: completion.usage?.prompt_tokens ?? 0, outputTokens: completion.usage?.completion_tokens ?? 0 };
    },
  };
}

/** SDK errors mapped once: 401/403 auth, 429 rate, ≥500 provider, connection, timeout. */
function toProviderError(error: unknown, model: string): Error {
  if (error instanceof APIUserAbortError) return abortError();
  const provider = 'openai';
  if (error instanceof APIConnectionTimeoutError) return new ProviderError('timeout', `openai did not answer in time (model ${model})`, { provider, retryable: true, cause: error });
  if (error instanceof APIConnectionError) return new ProviderError('unreachable', `openai server is unreachable: ${error.message.split('\n')[0]}`, { provider, retryable: true, cause: error, hint: 'check OPENAI_BASE_URL and that the server runs' });
  if (error instanceof APIError && typeof error.status === 'number') return describeStatus(provider, error.status, model, error);
  return new ProviderError('provider_error', `openai failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, { provider, cause: error });
}
