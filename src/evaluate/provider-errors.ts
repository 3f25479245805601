import { errorLine, ProviderError } from '../core/errors.js';

/**
 * An HTTP status from either SDK → our vocabulary. Kept apart from the SDK files so both map a
 * status the same way; each SDK file still decides which of its error classes carry a status.
 */
export function describeStatus(provider: string, status: number, model: string, cause: unknown): ProviderError {
  const options = { provider, status, cause };
  const key = provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
  if (status === 401 || status === 403) {
    return new ProviderError('auth_failed', `${provider} refused the API key (HTTP ${status})`, { ...options, hint: `check ${key}` });
  }
  if (status === 429) return new ProviderError('rate_limited', `${provider} is rate limiting (HTTP 429) after retries`, { ...options, retryable: true });
  if (status >= 500) return new ProviderError('provider_error', `${provider} failed with HTTP ${status} after retries`, { ...options, retryable: true });
  // a server's message, one line of it and cut as error lines are: a megabyte of it was echoed whole
  const detail = cause instanceof Error ? `: ${errorLine(cause.message)}` : '';
  return new ProviderError('provider_error', `${provider} rejected the request for model ${model} (HTTP ${status})${detail}`, options);
}
