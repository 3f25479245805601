import type { Deps, SearchScope } from '../core/deps.js';
import { redactSecrets } from '../core/redact.js';
import type { Candidate, EgressPart, Gap, Query, Usage } from '../core/types.js';
import { renderSignatureParts } from '../evaluate/signature.js';
import { isSafeGlob } from '../refine/suggested.js';
import type { ScoutAction, ToolOutcome } from '../refine/llm-scout.js';
import type { ModelRoles } from './model-roles.js';
import { quotedPath } from '../core/pack-text.js';

/** Subagents per cycle, and model turns each: bounded, so a cycle's cost is bounded. */
const MAX_SCOUTS = 3;
/** Of those, at most this many for focus areas: gaps a strong file points at come first. */
const MAX_FOCUS_SCOUTS = 1;
const MAX_STEPS = 3;
const LISTED = 8;

export interface ScoutsInput {
  model: ModelRoles;
  deps: Deps;
  scope: SearchScope;
  files: readonly string[];
  task: string;
  gaps: Gap[];
  /** Directories the LLM refiner asked to look into (root-relative), new this cycle. */
  focusAreas?: string[];
  signal?: AbortSignal | undefined;
}

/**
 * Open gaps and the refiner's focus areas → parallel retrieval subagents (glob, grep,
 * read_signature over the searcher and the facts reader). Their findings, deduplicated, join the
 * candidate pool before evaluation. Without a `scout` prompt (a user's prompts folder may lack
 * it) nothing runs.
 */
export async function runScouts({ model, deps, scope, files, task, gaps, focusAreas = [], signal }: ScoutsInput): Promise<{ found: Candidate[]; usage: Usage }> {
  const usage: Usage = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheHits: 0 };
  const template = model.prompts.get('scout');
  if (!template) return { found: [], usage };
  const goals = scoutGoals(gaps, focusAreas);
  if (goals.length === 0) return { found: [], usage };
  const tools = createTools(deps, scope, new Set(files));
  // loaded on use, as the planner's
  const { runScout } = await import('../refine/llm-scout.js');
  const runs = await Promise.all(goals.map((goal) => runScout({ model: model.chat, template, task, goal, tools, maxSteps: MAX_STEPS, signal, memo: model.memo })));
  const found = new Map<string, Candidate>();
  for (const run of runs) {
    usage.llmCalls += run.usage.llmCalls;
    usage.inputTokens += run.usage.inputTokens;
    usage.outputTokens += run.usage.outputTokens;
    usage.cacheHits += run.usage.cacheHits;
    for (const candidate of run.found) if (!found.has(candidate.path)) found.set(candidate.path, candidate);
  }
  return { found: [...found.values()], usage };
}

/**
 * What the subagents are sent after: gaps a strong file points at first (those are what the task
 * is missing), then a focus area, then the task's own unresolved names; at most MAX_SCOUTS.
 */
export function scoutGoals(gaps: readonly Gap[], focusAreas: readonly string[]): string[] {
  const ordered = [...gaps].sort((a, b) => Number(b.from !== undefined) - Number(a.from !== undefined));
  const pointed = ordered.filter((g) => g.from !== undefined).map((g) => g.question);
  const others = ordered.filter((g) => g.from === undefined).map((g) => g.question);
  const focus = [...new Set(focusAreas)].slice(0, MAX_FOCUS_SCOUTS).map((dir) => `which files under ${dir.replace(/\/+$/, '')}/ does the task need?`);
  return [...pointed, ...focus, ...others].slice(0, MAX_SCOUTS);
}

function createTools(deps: Deps, scope: SearchScope, files: ReadonlySet<string>) {
  const search = (query: Partial<Query>, signal?: AbortSignal) =>
    deps.searcher.search({ ...scope, query: { keywords: [], weights: {}, literals: [], symbols: [], paths: [], patterns: [], excludes: [], focusAreas: [], ...query }, maxCandidates: LISTED }, signal);

  return async (action: ScoutAction, signal?: AbortSignal): Promise<ToolOutcome> => {
    const arg = action.arg.trim();
    if (action.tool === 'grep') {
      const { candidates } = await search({ literals: [arg] }, signal);
      const egress: EgressPart[] = [];
      const lines = await Promise.all(
        candidates.slice(0, LISTED).map(async (c) => {
          const hit = c.hits.find((h) => h.text.toLowerCase().includes(arg.toLowerCase())) ?? c.hits[0];
          // Masked in the whole file, as a signature is: a line alone does not say that the
          // value on it is the password its key, a line above, names (`password:\n  Zq8v…`).
          const text = hit && (await deps.facts.readText(scope.root, c.path));
          const shown = hit && text !== undefined ? redactSecrets(text, { path: c.path }).split('\n')[hit.line - 1] : undefined;
          if (!hit || shown === undefined) return quotedPath(c.path);
          const line = `${quotedPath(c.path)}:${hit.line}: ${shown.trim().slice(0, 120)}`;
          egress.push({ path: c.path, lines: [hit.line], bytes: Buffer.byteLength(line) });
          return line;
        }),
      );
      return { observation: lines.join('\n'), candidates: candidates.slice(0, LISTED), egress };
    }
    if (action.tool === 'glob') {
      // as the planner's globs: a glob of 70,000 characters was past what the path matcher compiles, and the run failed
      if (!isSafeGlob(arg)) return { observation: `${arg.slice(0, 60)}: not a glob this tool takes (root-relative, at most 120 characters and 4 * wildcards)`, candidates: [] };
      const { candidates } = await search({ patterns: [arg] }, signal);
      return { observation: candidates.slice(0, LISTED).map((c) => quotedPath(c.path)).join('\n'), candidates: candidates.slice(0, LISTED) };
    }
    const path = arg.replace(/^\.\//, '');
    if (!files.has(path)) return { observation: `${path}: not a searchable file`, candidates: [] };
    // a subagent reads a file's outline as its syntax tree gives it
    const facts = (await deps.facts.read(scope.root, [path], signal, true)).get(path);
    const text = await deps.facts.readText(scope.root, path);
    const candidate: Candidate = { path, size: text?.length ?? 0, termFreq: {}, literals: [], symbols: [], mentions: [], hits: [], sources: ['neighbour'] };
    const emptyPlan: Query = { keywords: [], weights: {}, literals: [], symbols: [], paths: [], patterns: [], excludes: [], focusAreas: [] };
    const signature = renderSignatureParts({ candidate, facts, text, plan: emptyPlan, tokenizer: deps.tokenizer, budget: 150 });
    return { observation: signature.text, candidates: [candidate], egress: [signature.egress] };
  };
}
