import type { ChatModel } from '../core/deps.js';
import { readEnv, type ProviderName } from '../core/options.js';
import type { FallbackReason } from '../core/types.js';
import { ANTHROPIC_DEFAULT_MODEL, OPENAI_DEFAULT_MODEL } from './defaults.js';

export interface ProviderChoice {
  /** The provider named in the result: `offline`, `anthropic` or `openai`. */
  provider: string;
  /** The chat model behind the LLM roles; absent when offline. */
  model?: ChatModel;
  /** Set when an explicitly asked provider could not be used and offline stands in. */
  fallback?: { reason: FallbackReason; message: string };
  /** One line for stderr: which provider and why. */
  note: string;
}

export interface ProviderSettings {
  provider: ProviderName;
  model: string | undefined;
  timeout: number;
  maxRetries: number;
  env: Record<string, string | undefined>;
}

// A local OpenAI-compatible server takes any key; the SDK insists on one.
const PLACEHOLDER_KEY = 'not-needed';

/**
 * Holds the `auto` choice (DESIGN.md): Anthropic when ANTHROPIC_API_KEY is set, OpenAI when
 * OPENAI_API_KEY or OPENAI_BASE_URL is set, else offline. A provider asked for by name without
 * credentials is not an error: the run goes offline and records `no_api_key`.
 */
export function chooseProvider({ provider, model, timeout, maxRetries, env }: ProviderSettings): ProviderChoice {
  const anthropicKey = readEnv(env, 'ANTHROPIC_API_KEY');
  const openaiKey = readEnv(env, 'OPENAI_API_KEY');
  const openaiBase = readEnv(env, 'OPENAI_BASE_URL');
  const anthropic = (): ChatModel =>
    loadOnFirstCall('anthropic', model ?? ANTHROPIC_DEFAULT_MODEL, async () =>
      (await import('./anthropic.js')).createAnthropicModel({ apiKey: anthropicKey!, baseURL: readEnv(env, 'ANTHROPIC_BASE_URL'), model, timeout, maxRetries }),
    );
  const openai = (): ChatModel =>
    loadOnFirstCall('openai', model ?? OPENAI_DEFAULT_MODEL, async () => (await import('./openai.js')).createOpenAIModel({ apiKey: openaiKey ?? PLACEHOLDER_KEY, baseURL: openaiBase, model, timeout, maxRetries }));
  const described = (chat: ChatModel, why: string): ProviderChoice => ({ provider: chat.provider, model: chat, note: `provider: ${chat.provider} (${chat.model}${why})` });

  switch (provider) {
    case 'offline':
      return { provider: 'offline', note: 'provider: offline' };
    case 'auto':
      if (anthropicKey) return described(anthropic(), ', ANTHROPIC_API_KEY is set');
      if (openaiKey || openaiBase) return described(openai(), openaiBase ? `, at ${openaiBase}` : ', OPENAI_API_KEY is set');
      return { provider: 'offline', note: 'provider: offline (no model configured)' };
    case 'anthropic':
      if (anthropicKey) return described(anthropic(), '');
      return noKey('anthropic', 'ANTHROPIC_API_KEY');
    case 'openai':
      if (openaiKey || openaiBase) return described(openai(), openaiBase ? `, at ${openaiBase}` : '');
      return noKey('openai', 'OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)');
  }
}

/** The provider's SDK is imported on the first call (a few hundred milliseconds an offline run never pays). */
function loadOnFirstCall(provider: string, model: string, create: () => Promise<ChatModel>): ChatModel {
  let chat: Promise<ChatModel> | undefined;
  let loaded: ChatModel | undefined;
  return {
    provider,
    model,
    attempts: () => loaded?.attempts?.() ?? 0,
    async complete(request, signal) {
      chat ??= create();
      chat.catch(() => (chat = undefined)); // an import that failed is tried again next call
      loaded = await chat;
      return loaded.complete(request, signal);
    },
  };
}

function noKey(provider: string, variable: string): ProviderChoice {
  const message = `--provider ${provider} needs ${variable}; continuing offline`;
  return { provider: 'offline', fallback: { reason: 'no_api_key', message }, note: `provider: offline (${message})` };
}
