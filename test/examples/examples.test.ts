/**
 * The examples run as written: `npx tsx examples/…` (and `sh examples/cli.sh`) as child
 * processes, importing `ctxloop` from the built package. Needs `npm run build` first.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempRepos } from '../helpers/make-repo.js';

const ROOT = resolve(__dirname, '../..');
const BUILT = existsSync(join(ROOT, 'dist/index.js'));
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const makeRepo = useTempRepos();
// Each example is a fresh tsx (or npx) process: seconds each on a shared 2-core machine.
const SLOW = 90_000;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { input?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<Ran> {
  return new Promise((done) => {
    const child = execFile(command, args, { cwd: options.cwd ?? ROOT, env: { ...process.env, NO_COLOR: '1', ...options.env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** `name (budget N): F files, T tokens` lines of the pipeline's output. */
function sectionsOf(stdout: string) {
  return [...stdout.matchAll(/^(\S+) \(budget (\d+)\): (\d+) files?, (\d+) tokens$/gm)].map((m) => ({ name: m[1]!, budget: Number(m[2]), files: Number(m[3]), tokens: Number(m[4]) }));
}

function shopRepo() {
  return makeRepo({
    'src/cart/total.ts': 'export function cartTotal(items: { price: number; qty: number }[]) {\n  return items.reduce((sum, i) => sum + i.price * i.qty, 0);\n}\n',
    'src/auth/session.ts': 'export function refreshSession(token: string) {\n  return isExpired(token) ? renewToken(token) : token;\n}\nfunction isExpired(t: string) { return t.length < 10; }\nfunction renewToken(t: string) { return `${t}-renewed`; }\n',
    'src/mail/send.ts': 'export async function sendReceipt(to: string, total: number) {\n  await deliverMail(to, `total: ${total}`);\n}\nasync function deliverMail(to: string, body: string) {}\n',
  });
}

describe.runIf(BUILT)('examples/pipeline.ts', () => {
  it('gathers context for three subagents in parallel, each within its own budget (as written, on ctxloop itself)', async () => {
    const r = await run(TSX, ['examples/pipeline.ts']);
    expect(r.code).toBe(0);
    const sections = sectionsOf(r.stdout);
    expect(sections.map((s) => [s.name, s.budget])).toEqual([['implementer', 6000], ['test-writer', 3000], ['reviewer', 1500]]);
    for (const s of sections) {
      expect(s.files).toBeGreaterThan(0);
      expect(s.tokens).toBeLessThanOrEqual(s.budget);
    }
    // The token-budget question ranks the packer first (as the dogfood test says).
    expect(r.stdout.split('\n')[1]).toMatch(/^ {2}\d\.\d\d {2}src\/pack\/pack\.ts /);
  }, SLOW);

  it('takes a root and one task per subagent', async () => {
    const repo = shopRepo();
    const r = await run(TSX, ['examples/pipeline.ts', repo.root, 'cartTotal ignores the quantity', 'refreshSession renews valid tokens', 'sendReceipt mails the wrong total']);
    expect(r.code).toBe(0);
    expect(sectionsOf(r.stdout).map((s) => [s.name, s.budget])).toEqual([['subagent-1', 6000], ['subagent-2', 3000], ['subagent-3', 1500]]);
    const firstFiles = r.stdout.split('\n').filter((_, i, lines) => /^\S+ \(budget/.test(lines[i - 1] ?? ''));
    expect(firstFiles.map((line) => line.trim().split(/\s+/)[1])).toEqual(['src/cart/total.ts', 'src/auth/session.ts', 'src/mail/send.ts']);
  }, SLOW);
});

describe.runIf(BUILT)('examples/prompt-hook.ts', () => {
  it('answers a Claude Code UserPromptSubmit event with additionalContext holding the right code', async () => {
    const repo = shopRepo();
    const event = { session_id: 's', transcript_path: '/dev/null', cwd: repo.root, hook_event_name: 'UserPromptSubmit', prompt: 'cartTotal ignores the quantity of each item' };
    const r = await run(TSX, ['examples/prompt-hook.ts'], { input: JSON.stringify(event), env: { CLAUDE_PROJECT_DIR: '' } });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    const context: string = out.hookSpecificOutput.additionalContext;
    expect(context).toMatch(/^Context gathered by ctxloop/);
    expect(context).toContain('## src/cart/total.ts');
    expect(context).toContain('items.reduce((sum, i) => sum + i.price * i.qty, 0)');
  }, SLOW);

  it('prints plain text for a prompt piped as text', async () => {
    const repo = shopRepo();
    const r = await run(TSX, [join(ROOT, 'examples/prompt-hook.ts')], { input: 'refreshSession renews tokens that are still valid', cwd: repo.root, env: { CLAUDE_PROJECT_DIR: '' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Context gathered by ctxloop/);
    expect(r.stdout).toContain('## src/auth/session.ts');
  }, SLOW);

  it('never blocks the prompt: nothing for a slash command, a one-line error for a missing root', async () => {
    const command = await run(TSX, ['examples/prompt-hook.ts'], { input: JSON.stringify({ prompt: '/clear', cwd: ROOT }), env: { CLAUDE_PROJECT_DIR: '' } });
    expect(command).toMatchObject({ code: 0, stdout: '' });
    const missing = await run(TSX, ['examples/prompt-hook.ts'], { input: JSON.stringify({ prompt: 'where is cartTotal defined?', cwd: '/nonexistent/dir' }), env: { CLAUDE_PROJECT_DIR: '' } });
    expect(missing).toMatchObject({ code: 0, stdout: '' });
    expect(missing.stderr).toContain('ctxloop hook: root not found: /nonexistent/dir');
  }, SLOW);
});

describe.runIf(BUILT)('examples/cli.sh', () => {
  it('runs as written from the repository: JSON summary, Markdown pack, paths', async () => {
    const r = await run('sh', ['examples/cli.sh', 'where does the CLI choose the exit code for a failed run?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^provider offline, \d+ files, \d+ tokens$/m);
    expect(r.stdout).toMatch(/^context pack: \d+ lines$/m);
    expect(r.stdout).toMatch(/^would open: src\/cli\/exit-codes\.ts$/m);
  }, SLOW);
});
