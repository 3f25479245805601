/**
 * The built binary end to end on a temp repository: stdout holds only data, progress is on
 * stderr, exit codes follow the table. Needs `npm run build` first (`npm test` does it).
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');

function run(args: string[], options: { cwd?: string; input?: string; env?: Record<string, string> } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(process.execPath, [BIN, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: '1', ...options.env }, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(options.input ?? '');
  });
}

describe('the package binary', () => {
  it('is the bundle these tests run: declared by package.json, executable, a Node script', () => {
    const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(resolve(__dirname, '../..', pkg.bin.ctxloop!)).toBe(BIN);
    expect(() => accessSync(BIN, constants.X_OK)).not.toThrow();
    expect(readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    // Bundled: the entry loads chunks, not the modules tsc wrote beside it.
    expect(readFileSync(BIN, 'utf8')).toMatch(/from "\.\.\/chunks\/chunk-\w+\.js"/);
    expect(readFileSync(BIN, 'utf8')).not.toContain('./main.js');
  });

  it('stays at dist/cli/bin.js, where the links npx keeps for a checkout\'s directory point', () => {
    // npx links a checkout's bin once, in its own cache, and reuses the link for every later
    // clone at that directory: a bin moved elsewhere leaves those clones running the old path.
    const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin).toEqual({ ctxloop: './dist/cli/bin.js' });
  });
});

describe.runIf(existsSync(BIN))('ctxloop binary', () => {
  let repo: TempRepo;
  let cache: string;
  beforeAll(() => {
    repo = makeRepo({
      'src/auth/verify.ts': 'export function verifyEmail(address: string): boolean {\n  return /@/.test(address);\n}\n',
      'src/routes/signup.ts': "import { verifyEmail } from '../auth/verify';\nexport function signup(email: string) {\n  if (!verifyEmail(email)) throw new Error('invalid email');\n}\n",
      'src/routes/invite.ts': "import { verifyEmail } from '../auth/verify';\nexport const invite = (e: string) => verifyEmail(e);\n",
      '.env': 'API_KEY=sk-live-should-never-be-read\n',
    });
    cache = join(repo.root, '..', `${repo.root.split('/').pop()}-cache`);
  });
  afterAll(() => repo.cleanup());

  it('prints the JSON contract on stdout and nothing else', async () => {
    const r = await run(['retrieve', '--root', repo.root, '--task', 'verifyEmail accepts addresses without a domain', '--json', '--cache', cache]);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(Object.keys(result)).toEqual(expect.arrayContaining(['task', 'root', 'provider', 'files', 'candidates', 'gaps', 'cycles', 'usage', 'tokens', 'cut']));
    expect(result.provider).toBe('offline');
    expect(result.files[0].path).toBe('src/auth/verify.ts');
    expect(result.files[0].regions[0]).toMatchObject({ start: 1 });
    expect(r.stdout).not.toContain('sk-live');
    expect(r.stderr).toContain('offline');
  });

  it('reads the task from stdin and prints paths', async () => {
    const r = await run(['retrieve', '--format', 'paths', '--no-cache'], { cwd: repo.root, input: 'where is verifyEmail defined?' });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')[0]).toBe('src/auth/verify.ts');
  });

  it('prints a markdown pack with fenced regions', async () => {
    const r = await run(['retrieve', '--root', repo.root, '--task', 'verifyEmail', '--no-cache', '--with-content']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('src/auth/verify.ts');
    expect(r.stdout).toMatch(/```(ts|typescript)\n/);
  });

  it.each([
    [['retrieve', '--root', '/nonexistent/dir', '--task', 'x'], 2, /root not found/],
    [['retrieve', '--task', '   '], 2, /task/],
    [['retrieve', '--task', 'x', '--threshold', '2'], 2, /--threshold/],
    [['retrieve', '--task', 'x', '--max-cycles', '9'], 2, /--max-cycles/],
    [['retrieve', '--task', 'x', '--bogus'], 2, /see ctxloop --help/],
  ])('refuses bad input %j with one line and exit %i', async (args, code, message) => {
    const r = await run(args as string[], { cwd: repo.root });
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 with a root that is a file, and prints a JSON error with --json', async () => {
    const r = await run(['retrieve', '--root', join(repo.root, 'src/auth/verify.ts'), '--task', 'x', '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('root_not_found');
  });

  it('shows help on stdout with exit 0', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('retrieve');
    expect(r.stdout).toContain('130');
  });
});

describe.runIf(existsSync(BIN))('examples', () => {
  it('preflight.ts gathers context through the library as written', async () => {
    const repo = makeRepo({
      'src/billing/invoice.py': 'def compute_invoice_total(lines):\n    return sum(l.amount for l in lines)\n',
      'src/billing/report.py': 'from .invoice import compute_invoice_total\n\ndef report(lines):\n    print(compute_invoice_total(lines))\n',
    });
    try {
      const tsx = resolve(__dirname, '../../node_modules/.bin/tsx');
      const example = resolve(__dirname, '../../examples/preflight.ts');
      const out = await new Promise<string>((done, fail) =>
        execFile(tsx, [example, 'compute_invoice_total returns the wrong total', repo.root], { cwd: resolve(__dirname, '../..') }, (error, stdout) => (error ? fail(error) : done(stdout))),
      );
      expect(out).toMatch(/\d\.\d\d {2}src\/billing\/invoice\.py/);
    } finally {
      repo.cleanup();
    }
  });
});

describe.runIf(existsSync(BIN))('hostile tasks', () => {
  it('takes 1 MB of binary on stdin as a task: a result or a clear message, never a crash', async () => {
    const repo = makeRepo({ 'src/a.ts': 'export const alpha = 1;\n' });
    try {
      const bytes = Buffer.alloc(1_000_000);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919 + 13) % 256;
      const r = await run(['retrieve', '--root', repo.root, '--json', '--no-cache'], { input: bytes.toString('latin1') });
      expect([0, 2]).toContain(r.code);
      expect(r.stderr).not.toContain('this is a bug');
      expect(() => JSON.parse(r.stdout)).not.toThrow();
    } finally {
      repo.cleanup();
    }
  });
});
