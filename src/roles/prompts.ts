import { z } from 'zod';
import { UsageError } from '../core/errors.js';
import { BUNDLED_PROMPTS_DIR } from './bundled-dirs.js';
import { parseFrontMatter } from './front-matter.js';
import { addUnique, readRoleFiles, ROLE_NAME } from './role-files.js';

/** A prompt template from `prompts/*.md`. The version is part of the score cache key. */
export interface PromptTemplate {
  name: string;
  version: number;
  /** Variables the body uses, each as `{{name}}`; rendering needs exactly these. */
  variables: string[];
  body: string;
  /** How messages name the file: `prompts/evaluate.md` when bundled, else its absolute path. */
  file: string;
}

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
// `{{ name }}`; anything else between double braces is reported rather than left in the prompt.
// The name is trimmed in code: `\s*` around a lazy group backtracked over every way to split a
// run of blanks (`{{` and 20,000 spaces in a prompt file: minutes, deaf to Ctrl-C).
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

const promptSchema = z.strictObject({
  name: z.string().regex(ROLE_NAME, 'must be lowercase words joined by dashes'),
  version: z.number().int('must be a whole number').min(1, 'must be 1 or more'),
  variables: z.array(z.string().regex(VARIABLE, 'must be an identifier')),
  description: z.string().optional(),
});

/**
 * Loads and validates every prompt in `dir` (default: the bundled `prompts/`). Each body
 * placeholder must be declared, and each declared variable used. Throws `UsageError('bad_prompt')`.
 */
export async function loadPrompts(dir: string = BUNDLED_PROMPTS_DIR): Promise<Map<string, PromptTemplate>> {
  const prompts = new Map<string, PromptTemplate>();
  for (const source of await readRoleFiles(dir, 'bad_prompt')) {
    const { data, body } = parseFrontMatter(source.text, source.display, promptSchema, 'bad_prompt');
    const template: PromptTemplate = { name: data.name, version: data.version, variables: data.variables, body, file: source.display };
    checkTemplate(template);
    addUnique(prompts, template, 'bad_prompt');
  }
  return prompts;
}

/** The placeholders of a body, in order of first use. Throws on `{{ not an identifier }}`. */
export function placeholdersOf(template: Pick<PromptTemplate, 'body' | 'file'>): string[] {
  const names = new Set<string>();
  for (const match of template.body.matchAll(PLACEHOLDER)) {
    const name = (match[1] ?? '').trim();
    if (!VARIABLE.test(name)) throw badPrompt(template.file, `malformed placeholder ${match[0]}`);
    names.add(name);
  }
  return [...names];
}

/**
 * Fills `{{name}}` placeholders in one pass, so a value that itself contains `{{…}}` (code from
 * the repository) is never expanded. Fails on a missing variable, an unknown variable, or a
 * placeholder the front matter does not declare.
 * @example renderPrompt(prompts.get('plan')!, { task: 'fix the login redirect' })
 */
export function renderPrompt(template: PromptTemplate, vars: Record<string, string>): string {
  checkTemplate(template);
  const declared = new Set(template.variables);
  const unknown = Object.keys(vars).filter((name) => !declared.has(name));
  if (unknown.length > 0) throw badPrompt(template.file, `unknown variable ${unknown.join(', ')} (declared: ${template.variables.join(', ') || 'none'})`);
  const missing = template.variables.filter((name) => typeof vars[name] !== 'string');
  if (missing.length > 0) throw badPrompt(template.file, `missing variable ${missing.join(', ')}`);
  const sections = sectionTags(template.body);
  return template.body.replace(PLACEHOLDER, (_, name: string) => escapeSections(vars[name.trim()] ?? '', sections));
}

/** A section's own line in a body: `<task>`, `</candidates>`. */
const SECTION_LINE = /^<\/?([a-z_]+)>$/gm;

function sectionTags(body: string): Set<string> {
  return new Set([...body.matchAll(SECTION_LINE)].map((m) => m[1]!));
}

/**
 * A value (a task, a repository's code) that holds a section's tag (`</candidates>` in a file)
 * would close that section early, and what follows it would read as the prompt's own words:
 * the tag's `<` is written `&lt;` there.
 */
function escapeSections(value: string, sections: ReadonlySet<string>): string {
  if (sections.size === 0 || !value.includes('<')) return value;
  return value.replace(/<(\s*\/?\s*)([A-Za-z_]+)(\s*>)/g, (tag, slash: string, name: string, close: string) => (sections.has(name.toLowerCase()) ? `&lt;${slash}${name}${close}` : tag));
}

function checkTemplate(template: PromptTemplate): void {
  const duplicate = template.variables.find((name, index) => template.variables.indexOf(name) !== index);
  if (duplicate) throw badPrompt(template.file, `variables lists ${duplicate} twice`);
  const used = placeholdersOf(template);
  const undeclared = used.filter((name) => !template.variables.includes(name));
  if (undeclared.length > 0) throw badPrompt(template.file, `placeholder {{${undeclared[0]}}} is not declared in variables`);
  const unused = template.variables.filter((name) => !used.includes(name));
  if (unused.length > 0) throw badPrompt(template.file, `variable ${unused.join(', ')} is declared but never used in the body`);
}

function badPrompt(file: string, message: string): UsageError {
  return new UsageError('bad_prompt', `${file}: ${message}`);
}
