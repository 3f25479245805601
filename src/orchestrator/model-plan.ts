import type { Cache } from '../core/deps.js';
import type { Query, Usage } from '../core/types.js';
import { planWithModel, queryReplySchema, widenQuery } from '../refine/llm-plan.js';
import type { ModelRoles } from './model-roles.js';
import { getReply, setReply } from './reply-cache.js';

export interface PlannedQuery {
  query: Query;
  usage: Usage;
}

/**
 * The first dispatch query: the offline plan widened by the LLM planner's suggestions, the
 * reply cached by (model, prompt version, task). A reply unusable twice leaves the plan as is.
 */
export async function planWithModelCached(model: ModelRoles, cache: Cache, task: string, plan: Query, signal?: AbortSignal): Promise<PlannedQuery> {
  const usage: Usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 };
  const template = model.prompts.get('plan')!;
  const key = { role: 'plan', provider: model.chat.provider, model: model.chat.model, promptVersion: template.version, input: task };
  const cached = queryReplySchema.safeParse(getReply(cache, key));
  if (cached.success) return { query: widenQuery(plan, cached.data), usage: { ...usage, cacheHits: 1 } };
  const reply = await planWithModel(model.chat, template, task, signal);
  if (!reply.ok) {
    model.logger.warn(`${model.chat.provider}: unusable plan reply twice (${reply.problem}); planning offline`);
    return { query: plan, usage: reply.usage };
  }
  setReply(cache, key, reply.value);
  return { query: widenQuery(plan, reply.value), usage: reply.usage };
}
