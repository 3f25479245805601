import type { Cache, ChatModel, Evaluator, FactsReader, Tokenizer } from '../core/deps.js';
import type { Logger } from '../core/log.js';
import { DEFAULTS, type ResolvedOptions } from '../core/options.js';
import { createModelEvaluator } from '../evaluate/model.js';
import { createEgressLog, type EgressLog } from '../llm/egress.js';
import { guardModel } from '../llm/guard.js';
import type { ReplyMemo } from '../llm/structured.js';
import type { Roles } from '../roles/agents.js';
import type { PromptTemplate } from '../roles/prompts.js';
import { createReplyMemo } from './reply-cache.js';

/** The LLM side of one run: the guarded model and the roles built on it. */
export interface ModelRoles {
  /** Every call goes through it: redaction, the caller's signal, the run's deadline. */
  chat: ChatModel;
  evaluator: Evaluator;
  prompts: ReadonlyMap<string, PromptTemplate>;
  logger: Logger;
  /** Validated replies of the planner and subagents, by prompt. */
  memo: ReplyMemo;
  /** Every request sent, with the file content it carried: the result's `egress`. */
  egress: EgressLog;
}

export interface ModelRolesInput {
  chat: ChatModel;
  roles: Roles;
  options: ResolvedOptions;
  facts: FactsReader;
  cache: Cache;
  tokenizer: Tokenizer;
  logger: Logger;
  signal?: AbortSignal | undefined;
}

/** Built per run, so the deadline counts from this run's first call. */
export function createModelRoles({ chat, roles, options, facts, cache, tokenizer, logger, signal }: ModelRolesInput): ModelRoles {
  // The client may outlive this run (a library user's retriever, the MCP server): count from here.
  const attemptsBefore = chat.attempts?.() ?? 0;
  const egress = createEgressLog({ provider: chat.provider, model: chat.model, attempts: chat.attempts ? () => chat.attempts!() - attemptsBefore : undefined });
  const guarded = guardModel(chat, { deadline: options.deadline, signal, egress, noEgress: options.noEgress });
  const evaluator = createModelEvaluator({
    model: guarded,
    prompt: roles.prompts.get('evaluate')!, // loadRoles guarantees the loop's prompts exist
    threshold: options.threshold,
    batchSize: options.batchSize,
    concurrency: DEFAULTS.modelConcurrency,
    readText: (path) => facts.readText(options.root, path),
    tokenizer,
    logger,
  });
  return { chat: guarded, evaluator, prompts: roles.prompts, logger, memo: createReplyMemo(cache), egress };
}
