import type { Query, Usage } from '../core/types.js';
import type { ModelRoles } from './model-roles.js';

export interface PlannedQuery {
  query: Query;
  usage: Usage;
}

/** The first dispatch query: the offline plan widened by the LLM planner. A reply unusable twice leaves the plan as is. */
export async function planWithModelRoles(model: ModelRoles, task: string, plan: Query, signal?: AbortSignal): Promise<PlannedQuery> {
  // loaded on use: an offline run never needs the LLM roles (nor zod's schemas and YAML prompts)
  const { planWithModel, widenQuery } = await import('../refine/llm-plan.js');
  const reply = await planWithModel(model.chat, model.prompts.get('plan')!, task, signal, model.memo);
  if (!reply.ok) {
    model.logger.warn(`${model.chat.provider}: unusable plan reply twice (${reply.problem}); planning offline`);
    return { query: plan, usage: reply.usage };
  }
  return { query: widenQuery(plan, reply.value), usage: reply.usage };
}
