/** Longest wait a server's `retry-after` may ask for: past it the request fails at once (the run goes on offline). */
export const MAX_RETRY_AFTER_MS = 20_000;

export interface ProviderFetch {
  fetch: (url: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /** HTTP requests made, the SDK's own retries included (for the egress manifest). */
  attempts: () => number;
}

/**
 * The `fetch` an SDK client is given, for what the SDKs leave open:
 * - every request is counted;
 * - a redirect is not followed: the SDK would send the prompt again to a host nobody configured
 *   (a 307 to another address received the whole body three times); it fails as its status;
 * - `timeout` bounds the whole attempt, the body included: the SDKs' own timeout ends when the
 *   headers arrive, and a body that never ended held the run until its deadline;
 * - a `retry-after` past `MAX_RETRY_AFTER_MS` (an hour, a date next year) is not waited for: the
 *   OpenAI SDK sleeps that long, deaf to the run's deadline and to Ctrl-C; the response is marked
 *   not to be retried (`x-should-retry: false`, which both SDKs read) and fails as the 429 it is.
 */
export function providerFetch(timeout: number): ProviderFetch {
  let attempts = 0;
  return {
    attempts: () => attempts,
    async fetch(url, init) {
      attempts += 1;
      // whichever comes first: the SDK's signal (its own timeout, the caller's abort) or ours (a `TimeoutError`)
      const signal = init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeout)]) : AbortSignal.timeout(timeout);
      const response = await fetch(url, { ...init, redirect: 'manual', signal });
      return waitTooLong(response.headers) ? withHeaders(response, { 'x-should-retry': 'false' }) : response;
    },
  };
}

/** The wait `retry-after-ms` or `retry-after` (seconds or an HTTP date) asks for is over the bound. */
function waitTooLong(headers: Headers): boolean {
  const millis = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(millis)) return millis > MAX_RETRY_AFTER_MS;
  const after = headers.get('retry-after');
  if (after === null) return false;
  const seconds = Number.parseFloat(after);
  const wait = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  return wait > MAX_RETRY_AFTER_MS;
}

function withHeaders(response: Response, extra: Record<string, string>): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** An abort by a timeout (`AbortSignal.timeout`), anywhere in an error's causes. */
export function isTimeoutAbort(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e.name === 'TimeoutError') return true;
  return false;
}
