import type { z } from 'zod';
import type { ChatModel, ModelRequest } from '../core/deps.js';
import type { Usage } from '../core/types.js';
import { parseReply } from './json.js';

/** Validated replies kept by request, so a warm repeat asks nothing (the orchestrator backs it with the cache). */
export interface ReplyMemo {
  get(model: ChatModel, request: ModelRequest): unknown;
  set(model: ChatModel, request: ModelRequest, value: unknown): void;
}

export type StructuredResult<T> = { ok: true; value: T; usage: Usage } | { ok: false; problem: string; usage: Usage };

export function zeroUsage(): Usage {
  return { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 };
}

/**
 * Asks for JSON and validates it. A malformed reply gets ONE repair turn that says what was
 * wrong; a second failure is returned (not thrown) so the caller can stand in for that work.
 * Provider failures (`ProviderError`) propagate. Usage counts both calls.
 */
export async function completeStructured<S extends z.ZodType>(model: ChatModel, request: ModelRequest, schema: S, signal?: AbortSignal, memo?: ReplyMemo): Promise<StructuredResult<z.output<S>>> {
  const usage = zeroUsage();
  const remembered = memo && schema.safeParse(memo.get(model, request));
  if (remembered?.success) return { ok: true, value: remembered.data, usage: { ...usage, cacheHits: 1 } };
  const ask = async (req: ModelRequest): Promise<string> => {
    const reply = await model.complete(req, signal);
    usage.llmCalls += 1;
    usage.inputTokens += reply.inputTokens;
    usage.outputTokens += reply.outputTokens;
    return reply.text;
  };
  const first = await ask(request);
  const parsed = parseReply(first, schema);
  if (parsed.ok) {
    memo?.set(model, request, parsed.value);
    return { ok: true, value: parsed.value, usage };
  }
  const echoed = first.length > MAX_ECHO_CHARS ? `${first.slice(0, MAX_ECHO_CHARS)}…` : first;
  const second = await ask({ ...request, repair: { reply: echoed, problem: parsed.problem } });
  const repaired = parseReply(second, schema);
  if (repaired.ok) {
    memo?.set(model, request, repaired.value);
    return { ok: true, value: repaired.value, usage };
  }
  return { ok: false, problem: repaired.problem, usage };
}

/**
 * Characters of a reply read at most. Replies are a few kilobytes of JSON (the request bounds
 * the tokens); a server that sent 50 MB crashed the masking of the repair turn, and a 5 MB reply
 * was sent back whole with each repair turn (45 MB out in one run).
 */
export const MAX_REPLY_CHARS = 200_000;
/** Characters of a bad reply echoed in the repair turn: enough for the model to see what it sent. */
const MAX_ECHO_CHARS = 4_000;

export function clipReply(text: string): string {
  return text.length > MAX_REPLY_CHARS ? text.slice(0, MAX_REPLY_CHARS) : text;
}

/**
 * A token count as the server reported it, or 0 when it is not one: a whole number of at most
 * `MAX_REPORTED_TOKENS`. `1e308` summed to Infinity, which the JSON result wrote as null.
 */
export function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(Math.round(value), MAX_REPORTED_TOKENS) : 0;
}

/** Tokens one call may report: far past any model's context, and sums of them stay exact numbers. */
const MAX_REPORTED_TOKENS = 100_000_000;

/**
 * A reply's structured part as text. JSON nested thousands deep (a 20 kB reply) overflowed the
 * stack in `JSON.stringify`, outside the SDK's error mapping: the run failed. Undefined then,
 * and the caller has no reply.
 */
export function replyJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return undefined;
  }
}

/** The repair turn's text, the same for every provider. */
export function repairMessage(problem: string): string {
  return `Your previous reply could not be used: ${problem}. Reply again with only the JSON object the schema describes, complete, no prose and no code fence.`;
}
