import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { ChatModel, ModelReply, ModelRequest } from '../core/deps.js';
import { abortError, ProviderError } from '../core/errors.js';
import { isTimeoutAbort, providerFetch } from '../llm/attempts.js';
import { clipReply, count, repairMessage, replyJson } from '../llm/structured.js';
import { describeStatus } from './provider-errors.js';
import { ANTHROPIC_DEFAULT_MODEL } from './defaults.js';

export interface AnthropicModelOptions {
  apiKey: string;
  /** `ANTHROPIC_BASE_URL`, a proxy or a test server. */
  baseURL?: string | undefined;
  model?: string | undefined;
  /** Milliseconds per request (the SDK applies it to each attempt). */
  timeout: number;
  /** Retries the SDK makes on 408/409/429/5xx and network errors, honouring `retry-after`. */
  maxRetries: number;
}

/**
 * The only file that imports `@anthropic-ai/sdk`. Structured output through a forced tool call:
 * the reply's `input` is the JSON, already shaped by the tool's input schema.
 */
export function createAnthropicModel(options: AnthropicModelOptions): ChatModel {
  // a little past the SDK's own timeout, which ends at the headers: its message names the first phase
  const counted = providerFetch(options.timeout + 1000);
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? null,
    timeout: options.timeout,
    maxRetries: options.maxRetries,
    fetch: counted.fetch,
  });
  const model = options.model ?? ANTHROPIC_DEFAULT_MODEL;
  return {
    provider: 'anthropic',
    model,
    attempts: counted.attempts,
    async complete(request: ModelRequest, signal?: AbortSignal): Promise<ModelReply> {
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: request.prompt }];
      if (request.repair) {
        messages.push({ role: 'assistant', content: request.repair.reply || '(empty reply)' }, { role: 'user', content: repairMessage(request.repair.problem) });
      }
      let message: unknown;
      try {
        message = await client.messages.create(
          {
            model,
            max_tokens: request.maxTokens,
            messages,
            tools: [{ name: request.schema.name, description: request.schema.description, input_schema: request.schema.json as Anthropic.Tool.InputSchema }],
            tool_choice: { type: 'tool', name: request.schema.name },
          },
          signal ? { signal } : {},
        );
      } catch (error) {
        throw toProviderError(error, model);
      }
      return readMessage(message, model);
    },
  };
}

/**
 * The forced tool call's input as JSON text (or the text blocks), and usage, whatever the server
 * sent: a body that is not a message (`null`, an array, `content` a string, a tool call without
 * `input`) crashed the run with a stack trace; it is no reply, and the run goes on offline.
 */
function readMessage(message: unknown, model: string): ModelReply {
  const body = message as { content?: unknown; usage?: { input_tokens?: unknown; output_tokens?: unknown } } | null;
  if (typeof body !== 'object' || body === null || !Array.isArray(body.content)) throw new ProviderError('provider_error', `anthropic sent no message (model ${model})`, { provider: 'anthropic' });
  const blocks = body.content.filter((block): block is Record<string, unknown> => typeof block === 'object' && block !== null);
  const tool = blocks.find((block) => block.type === 'tool_use' && block.input !== undefined);
  const text = tool ? (typeof tool.input === 'string' ? tool.input : replyJson(tool.input)) : blocks.map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : '')).join('');
  if (text === undefined) throw new ProviderError('provider_error', `anthropic sent a tool call nested too deep to read (model ${model})`, { provider: 'anthropic' });
  return { text: clipReply(text), inputTokens: count(body.usage?.input_tokens), outputTokens: count(body.usage?.output_tokens) };
}

/** SDK errors mapped once: 401/403 auth, 429 rate, ≥500 provider, connection, timeout. */
function toProviderError(error: unknown, model: string): Error {
  if (error instanceof APIUserAbortError) return abortError();
  const provider = 'anthropic';
  if (error instanceof APIConnectionTimeoutError || isTimeoutAbort(error)) return new ProviderError('timeout', `anthropic did not answer in time (model ${model})`, { provider, retryable: true, cause: error });
  if (error instanceof APIConnectionError) return new ProviderError('unreachable', `anthropic is unreachable: ${error.message.split('\n')[0]}`, { provider, retryable: true, cause: error, hint: 'check ANTHROPIC_BASE_URL and the network' });
  if (error instanceof APIError && typeof error.status === 'number') return describeStatus(provider, error.status, model, error);
  return new ProviderError('provider_error', `anthropic failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`, { provider, cause: error });
}
