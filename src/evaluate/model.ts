import pLimit from 'p-limit';
import type { ChatModel, EvalInput, EvalOutput, Evaluator, Tokenizer } from '../core/deps.js';
import { silentLogger, type Logger } from '../core/log.js';
import type { Candidate, Score, Usage } from '../core/types.js';
import { completeStructured, zeroUsage } from '../llm/structured.js';
import { clipTask } from '../llm/task.js';
import { renderPrompt, type PromptTemplate } from '../roles/prompts.js';
import { scoreOffline } from './offline/index.js';
import { EVALUATE_SCHEMA, evaluateReplySchema, type EvaluateReply } from './schema.js';
import { renderSignatureParts } from './signature.js';
import { roundTo } from '../core/numbers.js';
import { quotedPath, shownText } from '../core/pack-text.js';

/** Tokens one candidate may take in a prompt: what keeps a cycle under 2,500 input tokens. */
const CANDIDATE_TOKENS = 55;
/** The task is sent with every batch: a long bug report is cut (its head says what it is about). */
const TASK_CHARS = 700;

export interface ModelEvaluatorOptions {
  model: ChatModel;
  /** The `evaluate` prompt; its version is part of the score cache key. */
  prompt: PromptTemplate;
  threshold: number;
  batchSize: number;
  concurrency: number;
  /** Reads a candidate's text (root-relative path) for its signatures. */
  readText(path: string): Promise<string | undefined>;
  tokenizer: Tokenizer;
  logger?: Logger;
}

/**
 * An LLM judging candidates from compact signatures, in batches, a few calls at a time. A batch
 * whose reply is malformed twice is scored offline (`standIns`); a provider failure aborts the
 * other calls and throws `ProviderError` so the orchestrator can fall back for the whole run.
 */
export function createModelEvaluator(options: ModelEvaluatorOptions): Evaluator {
  const { model, prompt, logger = silentLogger } = options;
  const limit = pLimit(options.concurrency);
  // A fault is said once a run, not once a cycle; and a cycle in which no batch got a usable
  // reply (a model that cannot answer in the schema) ends the asking: later cycles are scored
  // offline without calls, where they cost as many calls again for the same stand-ins.
  const said = new Set<string>();
  let spent = false;
  return {
    id: model.provider,
    model: model.model,
    independent: true,
    version: prompt.version,
    async evaluate(input: EvalInput, signal?: AbortSignal): Promise<EvalOutput> {
      const prior = input.prior ?? new Map(scoreOffline(input).map((s) => [s.path, s]));
      const usage = zeroUsage();
      if (spent) return { scores: input.candidates.map((c) => standIn(c, prior)), usage, standIns: input.candidates.map((c) => c.path) };
      const standIns: string[] = [];
      // batches that failed the same way are said once, after the cycle's calls: six lines alike was noise
      const failed = new Map<string, number>();
      const stop = new AbortController();
      const onAbort = (): void => stop.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const judge = async (batch: Candidate[]): Promise<Score[]> => {
        const texts = await Promise.all(batch.map((c) => options.readText(c.path)));
        const signatures = batch.map((candidate, i) => renderSignatureParts({ candidate, facts: input.facts.get(candidate.path), text: texts[i], plan: input.plan, tokenizer: options.tokenizer, budget: CANDIDATE_TOKENS }));
        const candidates = signatures.map((s) => s.text).join('\n\n');
        const text = renderPrompt(prompt, { task: clipTask(input.task, TASK_CHARS), candidates, threshold: String(options.threshold) });
        const egress = signatures.map((s) => s.egress);
        const result = await completeStructured(model, { role: 'evaluate', prompt: text, schema: EVALUATE_SCHEMA, maxTokens: 200 + 80 * batch.length, egress }, evaluateReplySchema, stop.signal);
        addUsage(usage, result.usage);
        if (result.ok) return toScores(batch, result.value, prior, standIns);
        // `at position 1043`, or the reply's own text quoted, differ batch to batch for the same fault
        const problem = result.problem.replace(/\b(position|line|column) \d+/g, '$1 N').replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON/, ' is not valid JSON');
        failed.set(problem, (failed.get(problem) ?? 0) + batch.length);
        standIns.push(...batch.map((c) => c.path));
        return batch.map((c) => standIn(c, prior));
      };
      try {
        const batches = chunk(input.candidates, options.batchSize);
        const scored = await Promise.all(batches.map((batch) => limit(() => (stop.signal.aborted ? [] : judge(batch)))).map((p) => p.catch((error: unknown) => {
          // The first failure stops the other calls; the first error is the one reported.
          if (!stop.signal.aborted) stop.abort();
          throw error;
        })));
        const unanswered = failed.size > 0 && [...failed.values()].reduce((sum, files) => sum + files, 0) === input.candidates.length;
        for (const [problem, files] of failed) {
          if (said.has(problem) && !unanswered) continue;
          said.add(problem);
          logger.warn(`${model.provider}: unusable reply twice (${problem}); ${files} files scored offline${unanswered ? ', and every later cycle without asking' : ''}`);
        }
        spent ||= unanswered;
        return { scores: scored.flat(), usage, standIns };
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}

function toScores(batch: Candidate[], reply: EvaluateReply, prior: ReadonlyMap<string, Score>, standIns: string[]): Score[] {
  const byPath = new Map(reply.scores.map((s) => [s.path.replace(/^\.\//, ''), s]));
  return batch.map((candidate) => {
    // the model answers with the name as its prompt showed it (quoted when it holds a line break)
    const verdict = byPath.get(quotedPath(candidate.path)) ?? byPath.get(candidate.path);
    // A file the model left out keeps its offline score rather than vanishing.
    if (!verdict) {
      standIns.push(candidate.path);
      return standIn(candidate, prior);
    }
    return {
      path: candidate.path,
      relevance: roundTo(verdict.relevance, 3),
      reason: oneLine(verdict.reason),
      missing: verdict.missing.flatMap(toGap).slice(0, 8),
      evidence: prior.get(candidate.path)?.evidence ?? [],
    };
  });
}

function standIn(candidate: Candidate, prior: ReadonlyMap<string, Score>): Score {
  return prior.get(candidate.path) ?? { path: candidate.path, relevance: 0, reason: 'not scored', missing: [], evidence: [] };
}

/** The model names what is missing as written in code; refine reads `symbol:Name` gaps. */
function toGap(name: string): string[] {
  const last = name.trim().replace(/\(.*$/, '').split(/[.:#/\\]+/).filter(Boolean).pop() ?? '';
  return /^[A-Za-z_$][\w$]{2,}$/.test(last) ? [`symbol:${last}`] : [];
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A model's reason as the result keeps it: one line, at most 200 characters, its control characters (escape sequences, C1, bidi overrides) shown as U+FFFD in every format. */
function oneLine(text: string): string {
  const line = shownText(text.replace(/\s+/g, ' ').trim());
  return line.length > 200 ? `${line.slice(0, 199)}…` : line || 'no reason given';
}

function addUsage(total: Usage, more: Usage): void {
  total.llmCalls += more.llmCalls;
  total.inputTokens += more.inputTokens;
  total.outputTokens += more.outputTokens;
}
