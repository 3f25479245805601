/** A `fetch` for an SDK client that counts every HTTP request it makes, the SDK's own retries included (for the egress manifest). */
export function countingFetch(): { fetch: (url: string | URL | Request, init?: RequestInit) => Promise<Response>; attempts: () => number } {
  let attempts = 0;
  return {
    fetch: (url, init) => ((attempts += 1), fetch(url, init)),
    attempts: () => attempts,
  };
}
