import { z } from 'zod';
import type { ChatModel, ModelRequest } from '../core/deps.js';
import type { Candidate, EgressPart, Usage } from '../core/types.js';
import { completeStructured, zeroUsage, type ReplyMemo } from '../llm/structured.js';
import { clipTask } from '../llm/task.js';
import { renderPrompt, type PromptTemplate } from '../roles/prompts.js';
import { quotedPath } from '../core/pack-text.js';

export const scoutReplySchema = z.strictObject({
  actions: z.array(z.strictObject({ tool: z.enum(['grep', 'glob', 'read_signature']), arg: z.string() })),
  found: z.array(z.string()),
  done: z.boolean(),
});

export type ScoutAction = z.output<typeof scoutReplySchema>['actions'][number];

const SCOUT_SCHEMA: ModelRequest['schema'] = {
  name: 'next_step',
  description: 'Ask for tool calls, and report the files found so far.',
  json: {
    type: 'object',
    properties: {
      actions: { type: 'array', items: { type: 'object', properties: { tool: { type: 'string', enum: ['grep', 'glob', 'read_signature'] }, arg: { type: 'string' } }, required: ['tool', 'arg'], additionalProperties: false } },
      found: { type: 'array', items: { type: 'string' } },
      done: { type: 'boolean' },
    },
    required: ['actions', 'found', 'done'],
    additionalProperties: false,
  },
};

/** What a tool returns: text for the model, and the candidates it saw (with their evidence). */
export interface ToolOutcome {
  observation: string;
  candidates: Candidate[];
  /** File content the observation shows (for the egress manifest). */
  egress?: EgressPart[];
}

/** The subagent's tools; the orchestrator backs them with the searcher and the facts reader. */
export type ScoutTools = (action: ScoutAction, signal?: AbortSignal) => Promise<ToolOutcome>;

export interface ScoutInput {
  model: ChatModel;
  template: PromptTemplate;
  task: string;
  goal: string;
  tools: ScoutTools;
  /** Model turns at most. */
  maxSteps: number;
  signal?: AbortSignal | undefined;
  memo?: ReplyMemo | undefined;
}

const ACTIONS_PER_STEP = 3;
/** Observations kept for the next turn: the newest, so the prompt stays small. */
const OBSERVATION_CHARS = 2400;
const TASK_CHARS = 600;

/**
 * A retrieval subagent: a bounded loop of model turns, each asking for a few tool calls, until
 * it reports what it found or runs out of steps. Only paths its tools actually showed count.
 */
export async function runScout({ model, template, task, goal, tools, maxSteps, signal, memo }: ScoutInput): Promise<{ found: Candidate[]; usage: Usage }> {
  const usage = zeroUsage();
  const seen = new Map<string, Candidate>();
  const found = new Set<string>();
  let observations = '(none yet)';
  // Content shown so far: declared with every later prompt (observations are cut to the newest,
  // so this may name a little more than the prompt still holds, never less).
  const shown: EgressPart[] = [];
  const shortTask = clipTask(task, TASK_CHARS);
  for (let step = 1; step <= maxSteps; step++) {
    const prompt = renderPrompt(template, { task: shortTask, goal, observations });
    const reply = await completeStructured(model, { role: 'scout', prompt, schema: SCOUT_SCHEMA, maxTokens: 300, egress: [...shown] }, scoutReplySchema, signal, memo);
    usage.llmCalls += reply.usage.llmCalls;
    usage.inputTokens += reply.usage.inputTokens;
    usage.outputTokens += reply.usage.outputTokens;
    usage.cacheHits += reply.usage.cacheHits;
    if (!reply.ok) break;
    for (const path of reply.value.found) if (seen.has(path)) found.add(path);
    const actions = reply.value.actions.filter((a) => a.arg.trim()).slice(0, ACTIONS_PER_STEP);
    if (reply.value.done || actions.length === 0 || step === maxSteps) break;
    const outcomes = await Promise.all(actions.map((action) => tools(action, signal)));
    // by the name as the observations show it (quoted when it holds a line break), which the model answers with
    for (const outcome of outcomes) for (const c of outcome.candidates) if (!seen.has(quotedPath(c.path))) seen.set(quotedPath(c.path), c);
    for (const outcome of outcomes) shown.push(...(outcome.egress ?? []));
    const text = outcomes.map((o, i) => `${actions[i]!.tool} ${JSON.stringify(actions[i]!.arg)}:\n${o.observation || '(nothing)'}`).join('\n\n');
    observations = (observations === '(none yet)' ? text : `${observations}\n\n${text}`).slice(-OBSERVATION_CHARS);
  }
  return { found: [...found].map((p) => seen.get(p)!), usage };
}
