import type { ChatModel } from '../core/deps.js';
import { DEFAULTS } from '../core/options.js';
import type { Gap, Query, Score } from '../core/types.js';
import { completeStructured, type ReplyMemo, type StructuredResult } from '../llm/structured.js';
import { clipTask } from '../llm/task.js';
import { renderPrompt, type PromptTemplate } from '../roles/prompts.js';
import { QUERY_SCHEMA, queryReplySchema, widenQuery, type QueryReply } from './llm-plan.js';
import { quotedPath } from '../core/pack-text.js';

/** What the refiner sees: a few lines each, so a refine call stays near 400 tokens. */
const TASK_CHARS = 400;
const BEST_SCORES = 6;
const LOW_SCORES = 3;
const REASON_CHARS = 60;
const SHOWN_GAPS = 5;
const QUERY_ITEMS = 10;

export interface ModelRefineInput {
  task: string;
  /** This cycle's scores: the model's verdicts. */
  scores: readonly Score[];
  /** The gaps refine computed from them. */
  gaps: readonly Gap[];
  /** The query that just ran. */
  query: Query;
}

/** The LLM refiner: scores, gaps and the last query → suggestions for the next search. */
export function refineWithModel(model: ChatModel, template: PromptTemplate, input: ModelRefineInput, signal?: AbortSignal, memo?: ReplyMemo): Promise<StructuredResult<QueryReply>> {
  const prompt = renderPrompt(template, {
    task: clipTask(input.task, TASK_CHARS),
    query: renderQuery(input.query),
    scores: renderScores(input.scores),
    gaps: input.gaps.length === 0 ? '(none)' : input.gaps.slice(0, SHOWN_GAPS).map((g) => `- ${g.question}`).join('\n'),
  });
  return completeStructured(model, { role: 'refine', prompt, schema: QUERY_SCHEMA, maxTokens: 300 }, queryReplySchema, signal, memo);
}

export interface MergedRefinement {
  /** The next dispatch: refine's query widened by the model's keywords, patterns and focus areas. */
  search: Query;
  /** Refine's query plus the model's excludes that passed the check: what the next cycle scores against. */
  next: Query;
  /** True when the model suggested something that neither refine's query nor the last search had. */
  widened: boolean;
}

/**
 * Merges the model's suggestions into the deterministic refine's next query. Keywords, patterns
 * and focus areas widen the search only (`search`); the query the evaluator scores against stays
 * refine's own, so scores and their cache keys never depend on what a model suggested. An
 * exclude is kept only when it is the exact path of a candidate scored below 0.2: a glob, or a
 * file that looked useful, could hide the answer.
 */
export function mergeRefinement(next: Query, reply: QueryReply, scores: readonly Score[], dispatched: Query): MergedRefinement {
  const low = new Set(scores.filter((s) => s.relevance < DEFAULTS.excludeBelow).map((s) => s.path));
  const excludes = reply.excludes.map((e) => e.trim().replace(/^\.\//, '')).filter((e) => low.has(e));
  const kept: Query = excludes.length > 0 ? { ...next, excludes: [...new Set([...next.excludes, ...excludes])] } : next;
  const search = widenQuery(kept, reply);
  const fields = ['keywords', 'symbols', 'literals', 'patterns', 'focusAreas'] as const;
  // A model repeating last cycle's suggestions is not a new lead: compare with what already ran.
  const widened = fields.some((field) => search[field].some((item) => !kept[field].includes(item) && !dispatched[field].includes(item)));
  return { search, next: kept, widened };
}

/** `path 0.85 reason · missing: a, b`, the best files first, then the weakest (candidates to exclude). */
function renderScores(scores: readonly Score[]): string {
  const ranked = [...scores].sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1));
  const best = ranked.slice(0, BEST_SCORES);
  const low = ranked.filter((s) => s.relevance < DEFAULTS.excludeBelow && !best.includes(s)).slice(-LOW_SCORES);
  if (best.length === 0) return '(none)';
  const line = (s: Score): string => {
    const missing = s.missing.map((m) => m.replace(/^\w+:/, '')).slice(0, 4);
    return `${quotedPath(s.path)} ${s.relevance.toFixed(2)} ${clip(s.reason.replace(/\s+/g, ' '), REASON_CHARS)}${missing.length > 0 ? ` · missing: ${missing.join(', ')}` : ''}`;
  };
  return [...best.map(line), ...(low.length > 0 ? ['…', ...low.map(line)] : [])].join('\n');
}

/** The query in brief: its keywords are stemmed terms (`creat`, `axio`), no help to a model, so left out. */
function renderQuery(query: Query): string {
  const lines = [
    ['symbols', query.symbols],
    ['literals', query.literals.map((l) => JSON.stringify(l))],
    ['patterns', query.patterns],
    ['focus', query.focusAreas],
  ] as const;
  return lines
    .filter(([, items]) => items.length > 0)
    .map(([name, items]) => `${name}: ${items.slice(0, QUERY_ITEMS).join(', ')}${items.length > QUERY_ITEMS ? ', …' : ''}`)
    .join('\n') || '(empty)';
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}
