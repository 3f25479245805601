import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAgents, loadRoles } from '../../src/roles/agents.js';
import { BUNDLED_AGENTS_DIR, BUNDLED_PROMPTS_DIR } from '../../src/roles/bundled-dirs.js';
import { loadPrompts } from '../../src/roles/prompts.js';
import { UsageError } from '../../src/core/errors.js';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

let temp: TempRepo | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});
const folder = (files: Record<string, string>): string => {
  temp = makeRepo(files, { git: false });
  return temp.root;
};

/** The UsageError a promise rejects with. */
async function usageErrorOf(promise: Promise<unknown>): Promise<UsageError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}

describe('bundled roles', () => {
  it('are found from src/roles (two levels below the package root)', () => {
    expect(existsSync(join(BUNDLED_AGENTS_DIR, 'retriever.md'))).toBe(true);
    expect(existsSync(join(BUNDLED_PROMPTS_DIR, 'evaluate.md'))).toBe(true);
  });

  it('load and validate together', async () => {
    const { agents, prompts } = await loadRoles();
    expect([...agents.keys()].sort()).toEqual(['context-scout', 'evaluator', 'refiner', 'retriever']);
    expect([...prompts.keys()].sort()).toEqual(['evaluate', 'plan', 'refine', 'scout']);
    expect(agents.get('retriever')).toMatchObject({ tools: ['glob', 'grep', 'read_signature'], prompt: 'plan', file: 'agents/retriever.md' });
    expect(agents.get('evaluator')).toMatchObject({ prompt: 'evaluate', model: { anthropic: 'claude-haiku-4-5', openai: 'gpt-4.1-mini' } });
    expect(prompts.get('evaluate')).toMatchObject({ version: 3, variables: ['task', 'candidates', 'threshold'], file: 'prompts/evaluate.md' });
    expect(prompts.get('refine')?.variables).toEqual(['task', 'scores', 'gaps', 'query']);
    for (const prompt of prompts.values()) expect(Number.isInteger(prompt.version)).toBe(true);
  });

  it('ship a Claude Code subagent that runs ctxloop before work', async () => {
    const scout = (await loadAgents()).get('context-scout');
    expect(scout?.description).toMatch(/use proactively before starting any coding task/i);
    expect(scout?.tools).toEqual(['Bash', 'Read', 'Grep', 'Glob', 'mcp__ctxloop__retrieve_context', 'mcp__ctxloop__locate_bug']);
    expect(scout?.body).toContain('`retrieve_context`');
    expect(scout?.body).toContain('npx ctxloop retrieve');
    expect(scout?.body).toContain('--format md');
  });

  it('ask for strict JSON with the documented schemas', async () => {
    const prompts = await loadPrompts();
    expect(prompts.get('evaluate')?.body).toContain('{"scores":[{"path":');
    expect(prompts.get('evaluate')?.body).toContain('"missing":[]');
    for (const name of ['plan', 'refine']) expect(prompts.get(name)?.body).toContain('{"keywords":[],"patterns":[],"excludes":[],"focusAreas":[]}');
  });
});

describe('user folders', () => {
  const agent = (name: string, extra = ''): string => `---\nname: ${name}\ndescription: a role of my own\n${extra}---\nDo the thing.\n`;

  it('--agents-dir loads a user folder instead of the bundled one', async () => {
    const dir = folder({ 'mine.md': agent('mine', 'model: haiku\ntools: Read, Grep\ncolor: blue\n'), 'README.md': '# notes, not a role' });
    const { agents, prompts } = await loadRoles({ agentsDir: dir });
    expect([...agents.keys()]).toEqual(['mine']);
    expect(agents.get('mine')).toMatchObject({ model: { default: 'haiku' }, tools: ['Read', 'Grep'], body: 'Do the thing.', file: join(dir, 'mine.md') });
    expect(prompts.has('evaluate')).toBe(true);
  });

  it('reads only regular files of at most 1 MB: a FIFO hung the run, a link brought in any file', async () => {
    const dir = folder({ 'mine.md': agent('mine') });
    execFileSync('mkfifo', [join(dir, 'zz.md')]);
    const fifo = await usageErrorOf(loadAgents(dir));
    expect(fifo.message).toBe(`${join(dir, 'zz.md')}: not a regular file (a link, a FIFO, a device or a folder), so not read`);
    rmSync(join(dir, 'zz.md'));
    const outside = makeRepo({ 'secret.md': agent('stolen') }, { git: false });
    try {
      symlinkSync(join(outside.root, 'secret.md'), join(dir, 'yy.md'));
      expect((await usageErrorOf(loadAgents(dir))).message).toMatch(/yy\.md: not a regular file/);
    } finally {
      outside.cleanup();
    }
    rmSync(join(dir, 'yy.md'));
    writeFileSync(join(dir, 'big.md'), `${agent('big')}${'x'.repeat(1_100_000)}`);
    expect((await usageErrorOf(loadAgents(dir))).message).toMatch(/big\.md: \d+ bytes, more than a role file holds/);
  });

  it('refuses a folder of more files or bytes than a role folder holds, before reading them all (8,000 files of a megabyte: 8 GB, a V8 abort)', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 101; i++) many[`a${String(i).padStart(3, '0')}.md`] = agent(`a${i}`);
    const dir = folder(many);
    expect((await usageErrorOf(loadAgents(dir))).message).toBe(`agents folder holds 101 .md files, more than a role folder holds (at most 100): ${dir}`);
    const heavy: Record<string, string> = {};
    for (let i = 0; i < 5; i++) heavy[`h${i}.md`] = `${agent(`h${i}`)}${'x'.repeat(1_000_000)}`;
    const full = folder(heavy);
    expect((await usageErrorOf(loadAgents(full))).message).toBe(`agents folder holds more than 4194304 bytes of role files: ${full}`);
  });

  it('a retriever reads each call\'s own folders: a bad folder fails its call, not every later one', async () => {
    const { createRetriever } = await import('../../src/orchestrator/retriever.js');
    const bad = makeRepo({ 'a.ts': 'export function verifyEmail() {}\n', 'ag/x.md': 'no front matter\n', 'ctxloop.config.json': '{"agentsDir":"ag"}' });
    const good = makeRepo({ 'a.ts': 'export function verifyEmail() {}\n' });
    try {
      const retriever = createRetriever({ cache: false, provider: 'offline' });
      await expect(retriever.retrieve('verifyEmail', { root: bad.root })).rejects.toMatchObject({ code: 'bad_agent' });
      expect((await retriever.retrieve('verifyEmail', { root: good.root })).files.map((f) => f.path)).toEqual(['a.ts']);
      // fixed, the same folder is read again
      writeFileSync(join(bad.root, 'ag', 'x.md'), agent('mine'));
      expect((await retriever.retrieve('verifyEmail', { root: bad.root })).files.map((f) => f.path)).toEqual(['a.ts']);
    } finally {
      bad.cleanup();
      good.cleanup();
    }
  });

  it('a missing field is one line naming the file and the field', async () => {
    const dir = folder({ 'evaluator.md': '---\nname: evaluator\n---\nbody\n' });
    const error = await usageErrorOf(loadAgents(dir));
    expect(error.code).toBe('bad_agent');
    expect(error.message).toBe(`${join(dir, 'evaluator.md')}: description is required`);
  });

  it('a wrong type, bad YAML, or no front matter are each one line', async () => {
    const wrongType = folder({ 'a.md': agent('a', 'tools: 5\n') });
    expect((await usageErrorOf(loadAgents(wrongType))).message).toMatch(/a\.md: tools: .* \(got 5\)$/);
    temp?.cleanup();
    const badYaml = folder({ 'b.md': '---\nname: [b\n---\nbody' });
    const yamlError = await usageErrorOf(loadAgents(badYaml));
    expect(yamlError.message).toMatch(/b\.md: invalid YAML in front matter: /);
    expect(yamlError.message).not.toContain('\n');
    temp?.cleanup();
    const none = folder({ 'c.md': '# just markdown\n' });
    expect((await usageErrorOf(loadAgents(none))).message).toContain('c.md: missing front matter');
  });

  it('a prompt with an undeclared placeholder fails at load', async () => {
    const dir = folder({ 'p.md': '---\nname: p\nversion: 1\nvariables: [task]\n---\nDo {{task}} with {{extra}}.\n' });
    const error = await usageErrorOf(loadPrompts(dir));
    expect(error.code).toBe('bad_prompt');
    expect(error.message).toBe(`${join(dir, 'p.md')}: placeholder {{extra}} is not declared in variables`);
  });

  it('a prompt with a non-integer version or a typo in a field fails at load', async () => {
    const dir = folder({ 'p.md': '---\nname: p\nversion: 1.5\nvariables: []\n---\nhello\n' });
    expect((await usageErrorOf(loadPrompts(dir))).message).toMatch(/p\.md: version: must be a whole number \(got 1\.5\)$/);
    temp?.cleanup();
    const typo = folder({ 'p.md': '---\nname: p\nversion: 1\nvariable: [task]\n---\n{{task}}\n' });
    expect((await usageErrorOf(loadPrompts(typo))).message).toMatch(/p\.md: unknown field variable$/);
  });

  it('a user prompts folder must provide the loop prompts with their variables', async () => {
    const missing = folder({ 'plan.md': '---\nname: plan\nversion: 2\nvariables: [task]\n---\n{{task}}\n' });
    const error = await usageErrorOf(loadRoles({ promptsDir: missing }));
    expect(error.code).toBe('bad_prompt');
    expect(error.message).toBe(`prompt "evaluate" not found in ${missing}`);
  });

  it('a user scout prompt is checked at load as the loop prompts are (a wrong one failed the run at its first subagent), and may be left out', async () => {
    const files = Object.fromEntries(['plan', 'evaluate', 'refine'].map((name) => [`${name}.md`, readFileSync(join(BUNDLED_PROMPTS_DIR, `${name}.md`), 'utf8')]));
    const wrong = folder({ ...files, 'scout.md': '---\nname: scout\nversion: 1\nvariables: [task]\n---\nFind {{task}}\n' });
    const error = await usageErrorOf(loadRoles({ promptsDir: wrong }));
    expect(error.code).toBe('bad_prompt');
    expect(error.message).toBe(`${join(wrong, 'scout.md')}: variables must be task, goal, observations (got task)`);
    expect((await loadRoles({ promptsDir: folder(files) })).prompts.has('scout')).toBe(false);
  });

  it('an agent naming a prompt that does not exist fails', async () => {
    const dir = folder({ 'x.md': agent('x', 'prompt: summarize\n') });
    expect((await usageErrorOf(loadRoles({ agentsDir: dir }))).message).toBe(`${join(dir, 'x.md')}: prompt "summarize" not found in ${BUNDLED_PROMPTS_DIR}`);
  });

  it('two files with one name, and a folder that does not exist, are usage errors', async () => {
    const dir = folder({ 'a.md': agent('same'), 'b.md': agent('same') });
    expect((await usageErrorOf(loadAgents(dir))).message).toContain('b.md: name "same" is already used by');
    const gone = await usageErrorOf(loadAgents(join(dir, 'nope')));
    expect(gone.message).toBe(`agents folder not found: ${join(dir, 'nope')}`);
  });
});

describe('a role file whose YAML draws a warning', () => {
  it('is read without a word on stderr (the yaml package printed its warning, the line quoted raw, escape sequences and all)', async () => {
    const { spawnSync } = await import('node:child_process');
    const dir = makeRepo({ 'mine.md': '---\nname: mine\ndescription: !foo bar # \x1b]0;PWNED\x07\x1b[2J\nmodel: haiku\ntools: [Read]\n---\nDo the thing.\n' }, { git: false });
    try {
      const code = `import(${JSON.stringify(join(__dirname, '../../src/roles/agents.ts'))}).then((m) => m.loadAgents(${JSON.stringify(dir.root)})).then((a) => console.log([...a.keys()].join()))`;
      const out = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8', cwd: join(__dirname, '../..') });
      expect(out.stdout.trim()).toBe('mine');
      expect(out.stderr).not.toMatch(/YAMLWarning|\x1b/);
    } finally {
      dir.cleanup();
    }
  });
});
