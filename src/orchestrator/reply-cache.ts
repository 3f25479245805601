import type { Cache, ChatModel, ModelRequest } from '../core/deps.js';
import { replyKey } from '../core/keys.js';
import type { ReplyMemo } from '../llm/structured.js';

/**
 * Validated model replies other than per-file scores (the planner's query, the refiner's, a
 * subagent's next step) in the cache's reply layer, so a warm repeat of a task on unchanged code
 * makes no call: the key holds the provider, model, role, reply schema and the rendered prompt,
 * which holds the template, the task and everything the tools showed. Whoever reads a reply
 * validates it against its schema again, so a damaged entry is a miss.
 */
export function createReplyMemo(cache: Cache): ReplyMemo {
  const keyOf = (model: ChatModel, request: ModelRequest): string =>
    replyKey({ provider: model.provider, model: model.model, role: request.role, schema: request.schema.name, prompt: request.prompt });
  return {
    get: (model, request) => cache.getReply(keyOf(model, request)),
    set: (model, request, value) => cache.setReply(keyOf(model, request), value),
  };
}
