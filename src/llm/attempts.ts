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
export function providerFetch(timeout: number, maxBytes = MAX_REPLY_BYTES): ProviderFetch {
  let attempts = 0;
  return {
    attempts: () => attempts,
    async fetch(url, init) {
      attempts += 1;
      // A timer of our own, held until the body ends: an `AbortSignal.timeout` given to
      // `AbortSignal.any` is held weakly (Node 20), so a collection could take it, and a body
      // that stalled held the run until the caller's own deadline (120 s), as a provider error.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new DOMException(`no complete reply within ${timeout} ms`, 'TimeoutError')), timeout);
      // not what keeps the process alive (a body nobody reads would hold its exit): the request's socket does that
      timer.unref();
      const settle = (): void => clearTimeout(timer);
      // whichever comes first: the SDK's signal (its own timeout, the caller's abort) or ours (a `TimeoutError`)
      const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
      let response: Response;
      try {
        response = await fetch(url, { ...init, redirect: 'manual', signal });
      } catch (error) {
        settle();
        throw error;
      }
      const bounded = boundedBody(response, maxBytes, settle);
      return waitTooLong(bounded.headers) ? withHeaders(bounded, { 'x-should-retry': 'false' }) : bounded;
    },
  };
}

/**
 * Bytes of a reply read at most. The SDKs read a body whole before anything here can cut it
 * (`clipReply` keeps 200,000 characters of the text): a 300 MB reply took the process to 3.5 GB.
 * A real reply is a few kilobytes.
 */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;

/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

/** `response` with a body that fails past `maxBytes`; `done` runs once the body ended, failed or was cancelled. */
function boundedBody(response: Response, maxBytes: number, done: () => void): Response {
  if (!response.body || NO_BODY.has(response.status)) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  let bytes = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          done();
          controller.close();
          return;
        }
        bytes += value.byteLength;
        if (bytes > maxBytes) {
          done();
          controller.error(new Error(`the reply was larger than ${Math.round(maxBytes / 1024 / 1024)} MB: not read further`));
          await reader.cancel().catch(() => undefined);
          return;
        }
        controller.enqueue(value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
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
