import type { Gap, Query, Score, Usage } from '../core/types.js';
import type { MergedRefinement } from '../refine/llm-refine.js';
import type { ModelRoles } from './model-roles.js';

export interface ModelRefineStep {
  task: string;
  scores: readonly Score[];
  gaps: readonly Gap[];
  /** The query that just ran (what the model is shown). */
  dispatched: Query;
  /** The deterministic refine's next query (what the model's suggestions are merged into). */
  next: Query;
}

/**
 * The LLM refiner on top of the deterministic one. A reply unusable twice leaves refine's query
 * as is (`merged` absent); a provider failure throws, for the orchestrator to fall back.
 */
export async function refineWithModelRoles(model: ModelRoles, step: ModelRefineStep, signal?: AbortSignal): Promise<{ merged?: MergedRefinement; usage: Usage }> {
  // loaded on use, as the planner's
  const { mergeRefinement, refineWithModel } = await import('../refine/llm-refine.js');
  const reply = await refineWithModel(model.chat, model.prompts.get('refine')!, { task: step.task, scores: step.scores, gaps: step.gaps, query: step.dispatched }, signal, model.memo);
  if (!reply.ok) {
    model.logger.warn(`${model.chat.provider}: unusable refine reply twice (${reply.problem}); refining offline`);
    return { usage: reply.usage };
  }
  return { merged: mergeRefinement(step.next, reply.value, step.scores, step.dispatched), usage: reply.usage };
}
