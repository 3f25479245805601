import { z } from 'zod';
import type { ChatModel, ModelRequest } from '../core/deps.js';
import { identifierTerms, isCodeLike } from '../core/text.js';
import type { Query } from '../core/types.js';
import { completeStructured, type ReplyMemo, type StructuredResult } from '../llm/structured.js';
import { clipTask } from '../llm/task.js';
import { isSafeDir, isSafeGlob, MAX_FOCUS_AREAS } from './suggested.js';
import { renderPrompt, type PromptTemplate } from '../roles/prompts.js';

/** What the `plan` and `refine` prompts ask for. */
export const queryReplySchema = z.strictObject({
  keywords: z.array(z.string()),
  patterns: z.array(z.string()),
  excludes: z.array(z.string()),
  focusAreas: z.array(z.string()),
});

export type QueryReply = z.output<typeof queryReplySchema>;

export const QUERY_SCHEMA: ModelRequest['schema'] = {
  name: 'report_query',
  description: 'Report the search query: keywords, path glob patterns, excludes and focus areas.',
  json: { type: 'object', properties: { keywords: strings(), patterns: strings(), excludes: strings(), focusAreas: strings() }, required: ['keywords', 'patterns', 'excludes', 'focusAreas'], additionalProperties: false },
};

/** Weight of a model's suggestion: enough to find a file, too little to outrank what the task names. */
const SUGGESTED_WEIGHT = 0.3;
const MAX_KEYWORDS = 12;
const MAX_PATTERNS = 6;
/** A long task is cut: the model needs what it is about, not the whole log. */
const TASK_CHARS = 1000;

/** The LLM planner: the task → suggested keywords, path patterns and focus areas. */
export function planWithModel(model: ChatModel, template: PromptTemplate, task: string, signal?: AbortSignal, memo?: ReplyMemo): Promise<StructuredResult<QueryReply>> {
  return completeStructured(model, { role: 'plan', prompt: renderPrompt(template, { task: clipTask(task, TASK_CHARS) }), schema: QUERY_SCHEMA, maxTokens: 400 }, queryReplySchema, signal, memo);
}

/**
 * The offline plan widened by a model's suggestions. Only the dispatch query grows: the plan the
 * evaluator scores against stays the task's own, so scores (and their cache keys) do not depend
 * on what a model happened to suggest. Excludes are ignored: a wrong one would hide the answer.
 */
export function widenQuery(query: Query, reply: QueryReply): Query {
  const keywords = [...query.keywords];
  const weights = { ...query.weights };
  const symbols = [...query.symbols];
  const literals = [...query.literals];
  for (const raw of reply.keywords.slice(0, MAX_KEYWORDS)) {
    const word = raw.trim();
    if (!word || word.length > 80) continue;
    if (/\s/.test(word)) {
      if (!literals.includes(word)) literals.push(word);
      continue;
    }
    if (/^[A-Za-z_$][\w$]*$/.test(word) && isCodeLike(word) && !symbols.includes(word)) symbols.push(word);
    const [term] = identifierTerms(word.replace(/[^\w$]/g, '_'));
    if (term && !Object.hasOwn(weights, term)) {
      keywords.push(term);
      weights[term] = SUGGESTED_WEIGHT;
    }
  }
  const patterns = [...new Set([...query.patterns, ...reply.patterns.filter(isSafeGlob).slice(0, MAX_PATTERNS)])];
  const focusAreas = [...new Set([...query.focusAreas, ...reply.focusAreas.map((f) => f.replace(/^\.?\/+|\/+$/g, '')).filter(isSafeDir).slice(0, MAX_FOCUS_AREAS)])];
  return { ...query, keywords, weights, symbols, literals, patterns, focusAreas };
}

function strings(): Record<string, unknown> {
  return { type: 'array', items: { type: 'string' } };
}
