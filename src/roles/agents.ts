import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../core/errors.js';
import { BUNDLED_AGENTS_DIR, BUNDLED_PROMPTS_DIR } from './bundled-dirs.js';
import { parseFrontMatter } from './front-matter.js';
import { loadPrompts, type PromptTemplate } from './prompts.js';
import { addUnique, readRoleFiles, ROLE_NAME } from './role-files.js';

/** A role from `agents/*.md`: what it does in the loop, which model suits it, which prompt it sends. */
export interface AgentDefinition {
  name: string;
  description: string;
  /**
   * Model hints by provider (`{ anthropic: 'claude-haiku-4-5', openai: 'gpt-4.1-mini' }`). A plain
   * string (Claude Code's `model: haiku`) is kept under `default`. `--model` always wins.
   */
  model: Record<string, string>;
  /** Tool names; Claude Code's comma-separated string form is split. */
  tools: string[];
  /** Name of the prompt template in `prompts/` this role sends, if any. */
  prompt: string | undefined;
  /** The instructions (the Markdown after the front matter). */
  body: string;
  /** How messages name the file: `agents/evaluator.md` when bundled, else its absolute path. */
  file: string;
}

// Loose on purpose: a Claude Code subagent file carries fields of its own (color, permissionMode…).
const agentSchema = z.looseObject({
  name: z.string().regex(ROLE_NAME, 'must be lowercase words joined by dashes'),
  description: z.string().trim().min(1, 'must not be empty'),
  model: z.union([z.string().min(1), z.record(z.string(), z.string().min(1))]).optional(),
  tools: z.union([z.string(), z.array(z.string().min(1))]).optional(),
  prompt: z.string().regex(ROLE_NAME, 'must name a prompt (lowercase words joined by dashes)').optional(),
});

/** Loads and validates every role in `dir` (default: the bundled `agents/`). Throws `UsageError('bad_agent')`. */
export async function loadAgents(dir: string = BUNDLED_AGENTS_DIR): Promise<Map<string, AgentDefinition>> {
  const agents = new Map<string, AgentDefinition>();
  for (const source of await readRoleFiles(dir, 'bad_agent')) {
    const { data, body } = parseFrontMatter(source.text, source.display, agentSchema, 'bad_agent');
    addUnique(
      agents,
      {
        name: data.name,
        description: data.description,
        model: typeof data.model === 'string' ? { default: data.model } : (data.model ?? {}),
        tools: typeof data.tools === 'string' ? data.tools.split(',').map((t) => t.trim()).filter(Boolean) : (data.tools ?? []),
        prompt: data.prompt,
        body,
        file: source.display,
      },
      'bad_agent',
    );
  }
  return agents;
}

/**
 * The prompts the loop sends and the variables each must take: a user's `--prompts-dir` has to
 * provide these, so a mistake shows at start rather than on the first model call.
 */
export const REQUIRED_PROMPTS: Readonly<Record<string, readonly string[]>> = {
  plan: ['task'],
  evaluate: ['task', 'candidates', 'threshold'],
  refine: ['task', 'scores', 'gaps', 'query'],
};

/** Prompts the loop sends when they are there (a folder without `scout` runs no subagents): checked as the required ones when present. */
export const OPTIONAL_PROMPTS: Readonly<Record<string, readonly string[]>> = {
  scout: ['task', 'goal', 'observations'],
};

export interface RolesOptions {
  /** Replaces the bundled `agents/`. */
  agentsDir?: string | undefined;
  /** Replaces the bundled `prompts/`. */
  promptsDir?: string | undefined;
}

export interface Roles {
  agents: Map<string, AgentDefinition>;
  prompts: Map<string, PromptTemplate>;
}

/**
 * Loads agents and prompts (a user folder replaces the bundled one, it is not merged) and checks
 * them together: every `prompt:` an agent names exists, and the loop's prompts are all there with
 * the variables it fills. The orchestrator calls this once at start.
 */
export async function loadRoles(options: RolesOptions = {}): Promise<Roles> {
  const promptsDir = options.promptsDir ?? BUNDLED_PROMPTS_DIR;
  const [agents, prompts] = await Promise.all([loadAgents(options.agentsDir ?? BUNDLED_AGENTS_DIR), loadPrompts(promptsDir)]);
  for (const [name, variables] of Object.entries(REQUIRED_PROMPTS)) {
    const template = prompts.get(name);
    if (!template) {
      throw new UsageError('bad_prompt', `prompt "${name}" not found in ${promptsDir}`, { hint: `copy ${join(BUNDLED_PROMPTS_DIR, `${name}.md`)} as a start` });
    }
    checkVariables(template, variables);
  }
  // checked at start too: a wrong one failed the run at its first subagent, after model calls were paid for
  for (const [name, variables] of Object.entries(OPTIONAL_PROMPTS)) {
    const template = prompts.get(name);
    if (template) checkVariables(template, variables);
  }
  for (const agent of agents.values()) {
    if (agent.prompt !== undefined && !prompts.has(agent.prompt)) {
      throw new UsageError('bad_agent', `${agent.file}: prompt "${agent.prompt}" not found in ${promptsDir}`);
    }
  }
  return { agents, prompts };
}

function checkVariables(template: PromptTemplate, variables: readonly string[]): void {
  if (!sameSet(template.variables, variables)) {
    throw new UsageError('bad_prompt', `${template.file}: variables must be ${variables.join(', ')} (got ${template.variables.join(', ') || 'none'})`);
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item) => b.includes(item));
}
