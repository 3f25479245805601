import type { Cache, ChatModel, ModelRequest } from '../core/deps.js';
import { cacheKey } from '../core/keys.js';
import type { ReplyMemo } from '../llm/structured.js';

/**
 * Validated model replies other than per-file scores (the planner's query, a subagent's next
 * step), kept by (provider, model, role, schema, prompt) so a warm repeat of a task on unchanged
 * code makes no call: the prompt holds the task and everything the tools showed. They ride in
 * the score layer, wrapped as a score whose `reason` holds the JSON: same eviction and atomic
 * writes, no cache-format change; the key's layer keeps them apart from real scores.
 */
export function createReplyMemo(cache: Cache): ReplyMemo {
  const keyOf = (model: ChatModel, request: ModelRequest): string =>
    cacheKey('reply', { provider: model.provider, model: model.model, role: request.role, schema: request.schema.name, prompt: request.prompt });
  return {
    get(model, request) {
      const hit = cache.getScore(keyOf(model, request));
      if (!hit || hit.path !== `@${request.role}`) return undefined;
      try {
        return JSON.parse(hit.reason) as unknown;
      } catch {
        return undefined; // a damaged entry is a miss: the model is asked again
      }
    },
    set(model, request, value) {
      cache.setScore(keyOf(model, request), { path: `@${request.role}`, relevance: 0, reason: JSON.stringify(value), missing: [], evidence: [] });
    },
  };
}
