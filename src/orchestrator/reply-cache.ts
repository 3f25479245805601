import type { Cache } from '../core/deps.js';
import { cacheKey } from '../core/keys.js';

export interface ReplyKey {
  role: string;
  provider: string;
  model: string;
  promptVersion: number;
  /** What the reply answers (the task, a goal): plain, serializable. */
  input: string;
}

/**
 * Model replies other than per-file scores (the planner's query), cached so a warm repeat makes
 * no call. They ride in the score layer, wrapped as a score whose `reason` holds the JSON: same
 * eviction and atomic writes, and no cache-format change. The key's layer keeps them apart.
 */
export function getReply(cache: Cache, key: ReplyKey): unknown {
  const hit = cache.getScore(cacheKey('reply', { ...key }));
  if (!hit || hit.path !== `@${key.role}`) return undefined;
  try {
    return JSON.parse(hit.reason) as unknown;
  } catch {
    return undefined; // a damaged entry is a miss: the model is asked again
  }
}

export function setReply(cache: Cache, key: ReplyKey, value: unknown): void {
  cache.setScore(cacheKey('reply', { ...key }), { path: `@${key.role}`, relevance: 0, reason: JSON.stringify(value), missing: [], evidence: [] });
}
