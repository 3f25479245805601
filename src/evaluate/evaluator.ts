import type { ChatModel } from '../core/deps.js';
import { errorLine, UsageError } from '../core/errors.js';
import { readEnv } from '../core/env.js';
import type { ProviderName } from '../core/options.js';
import { redactSecrets } from '../core/redact.js';
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
  // an offline run reads no key: a broken one in the environment is not its concern
  if (provider === 'offline') return { provider: 'offline', note: 'provider: offline' };
  const anthropicKey = checkedKey(env, 'ANTHROPIC_API_KEY');
  const openaiKey = checkedKey(env, 'OPENAI_API_KEY');
  const anthropicBase = checkedBaseUrl(env, 'ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY');
  const openaiBase = checkedBaseUrl(env, 'OPENAI_BASE_URL', 'OPENAI_API_KEY');
  const anthropic = (): ChatModel =>
    loadOnFirstCall('anthropic', model ?? ANTHROPIC_DEFAULT_MODEL, [anthropicKey, ...urlSecrets(anthropicBase)], async () =>
      (await import('./anthropic.js')).createAnthropicModel({ apiKey: anthropicKey!, baseURL: anthropicBase, model, timeout, maxRetries }),
    );
  const openai = (): ChatModel =>
    loadOnFirstCall('openai', model ?? OPENAI_DEFAULT_MODEL, [openaiKey, ...urlSecrets(openaiBase)], async () =>
      (await import('./openai.js')).createOpenAIModel({ apiKey: openaiKey ?? PLACEHOLDER_KEY, baseURL: openaiBase, model, timeout, maxRetries }),
    );
  // the model's name as written (a flag, the environment, a repository's config): cut as any echoed value, or a 200 kB name made a 200 kB line
  const described = (chat: ChatModel, why: string): ProviderChoice => ({ provider: chat.provider, model: chat, note: errorLine(`provider: ${chat.provider} (${chat.model}${why})`) });

  switch (provider) {
    case 'auto':
      if (anthropicKey) return described(anthropic(), ', ANTHROPIC_API_KEY is set');
      if (openaiKey || openaiBase) return described(openai(), openaiBase ? `, at ${shownUrl(openaiBase)}` : ', OPENAI_API_KEY is set');
      return { provider: 'offline', note: 'provider: offline (no model configured)' };
    case 'anthropic':
      if (anthropicKey) return described(anthropic(), '');
      return noKey('anthropic', 'ANTHROPIC_API_KEY');
    case 'openai':
      if (openaiKey || openaiBase) return described(openai(), openaiBase ? `, at ${shownUrl(openaiBase)}` : '');
      return noKey('openai', 'OPENAI_API_KEY (or OPENAI_BASE_URL for a local server)');
  }
}

/**
 * An API key from the environment: a line break, space, control character or a letter outside
 * ASCII inside one is no key (a paste gone wrong), and the SDK's complaint about the header it
 * cannot send quoted the key in its message, which a warning printed.
 */
function checkedKey(env: Record<string, string | undefined>, name: string): string | undefined {
  const key = readEnv(env, name);
  if (key !== undefined && /[\s\u0000-\u001f\u007f]/.test(key)) throw new UsageError('bad_option', `${name} holds a line break, space or control character: that is not an API key (check how it was set)`);
  // a header carries Latin-1 only: the SDK failed the run's first call with "Cannot convert argument to a ByteString"
  if (key !== undefined && /[^\u0021-\u007e]/.test(key)) throw new UsageError('bad_option', `${name} holds a character outside printable ASCII: that is not an API key (check how it was set)`);
  return key;
}

/**
 * A base URL from the environment that a request can be sent to: http or https, and no user or
 * password in it. Node's fetch refuses a URL with credentials, so one with a user and password
 * reached no server, reported as "unreachable: Connection error" even under --verbose. The
 * value is never quoted: it may hold a password.
 */
function checkedBaseUrl(env: Record<string, string | undefined>, name: string, keyName: string): string | undefined {
  const url = readEnv(env, name);
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError('bad_option', `${name} is not a URL (write it as http://host:port/v1)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError('bad_option', `${name} must start with http:// or https:// (write it as http://host:port/v1)`);
  if (parsed.username || parsed.password) throw new UsageError('bad_option', `${name} holds a user or password, which no request can carry: give the URL without them, and the key in ${keyName}`);
  // the URL parser would send `…/v1 extra` as `…/v1%20extra`: a paste gone wrong, not a path
  if (/\s/.test(url.trim())) throw new UsageError('bad_option', `${name} holds a space or line break: give the URL alone (write it as http://host:port/v1)`);
  return url;
}

/** A base URL as a note shows it: no user or password (`http://user:pass@host`), no query or fragment (`?api-key=…`), no key-shaped path segment. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const auth = parsed.username || parsed.password ? '***@' : '';
    // a gateway may take its key in the path (`/v1/key/sk-…`): masked as any secret shape is
    return `${parsed.protocol}//${auth}${parsed.host}${redactSecrets(parsed.pathname, { prose: true })}${parsed.search || parsed.hash ? '?…' : ''}`;
  } catch {
    // not a URL the SDK could use either: shown up to where credentials or a query could start
    return url.replace(/[@?#].*$/s, '…');
  }
}

/** What a base URL may carry that is secret: its password, its query's values (`?api-key=…`), a key-shaped path segment. */
function urlSecrets(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const parsed = new URL(url);
    let password = parsed.password;
    try {
      password = decodeURIComponent(password);
    } catch {
      // a malformed escape: kept as written
    }
    // a key in the path (`/v1/key/sk-…`), which a 404 quoting the request's path would echo
    const keyed = parsed.pathname.split('/').filter((segment) => segment !== '' && redactSecrets(segment, { prose: true }) !== segment);
    return [parsed.password, password, ...parsed.searchParams.values(), ...keyed];
  } catch {
    return [];
  }
}

/**
 * `message` with each of `secrets` (six characters or more) masked, as sent and URL-encoded: a
 * server or an SDK may echo the key or the URL it was sent (a 404 quoting the request's path and
 * query), and the message becomes a warning and `fallback.message`.
 */
function scrubSecrets(message: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = message;
  for (const secret of secrets) {
    if (!secret || secret.length < 6) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join('***');
  }
  return out;
}

/** The provider's SDK is imported on the first call (a few hundred milliseconds an offline run never pays). */
function loadOnFirstCall(provider: string, model: string, secrets: ReadonlyArray<string | undefined>, create: () => Promise<ChatModel>): ChatModel {
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
      try {
        return await loaded.complete(request, signal);
      } catch (error) {
        if (error instanceof Error) error.message = scrubSecrets(error.message, secrets);
        throw error;
      }
    },
  };
}

function noKey(provider: string, variable: string): ProviderChoice {
  const message = `--provider ${provider} needs ${variable}; continuing offline`;
  return { provider: 'offline', fallback: { reason: 'no_api_key', message }, note: `provider: offline (${message})` };
}
