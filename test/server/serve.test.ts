/**
 * `ctxloop serve` and the binary as its client, end to end: real processes, a real socket, real
 * ripgrep on a temp repository. Needs `npm run build` first (`npm test` does it).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';
import { resolveRgPath } from '../../src/retrieve/rg-path.js';
import { silentLogger } from '../../src/core/log.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function baseEnv(xdg: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', XDG_CACHE_HOME: xdg, ...extra };
  delete env.CTXLOOP_CACHE;
  delete env.CTXLOOP_NO_SERVER;
  return env;
}

function start(args: string[], env: NodeJS.ProcessEnv, input?: string): { child: ChildProcess; done: Promise<Ran> } {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (t: string) => (stdout += t));
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  child.stdin!.end(input ?? '');
  const done = new Promise<Ran>((res) => child.once('close', (code, signal) => res({ code, signal, stdout, stderr })));
  return { child, done };
}

function run(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<Ran> {
  return start(args, env, input).done;
}

interface Status {
  running: boolean;
  socket: string;
  pid?: number;
  served?: number;
  active?: number;
}

async function status(env: NodeJS.ProcessEnv): Promise<Status> {
  const r = await run(['serve', '--status', '--json'], env);
  return JSON.parse(r.stdout) as Status;
}

async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(existsSync(BIN))('ctxloop serve', () => {
  let repo: TempRepo;
  let xdg: string;
  let env: NodeJS.ProcessEnv;
  let server: ChildProcess;
  let slowRg: string;

  beforeAll(async () => {
    repo = makeRepo({
      'src/auth/verify.ts': 'export function verifyEmail(address: string): boolean {\n  return /@/.test(address);\n}\n',
      'src/routes/signup.ts': "import { verifyEmail } from '../auth/verify';\nexport function signup(email: string) {\n  if (!verifyEmail(email)) throw new Error('invalid email');\n}\n",
      'src/routes/invite.ts': "import { verifyEmail } from '../auth/verify';\nexport const invite = (e: string) => verifyEmail(e);\n",
    });
    xdg = mkdtempSync(join(tmpdir(), 'ctxloop-serve-'));
    env = baseEnv(xdg);
    // An rg that waits before it searches: a run that is still going when the test acts on it.
    const real = await resolveRgPath(process.env, silentLogger);
    slowRg = join(xdg, 'slow-rg.sh');
    writeFileSync(slowRg, `#!/bin/sh\nsleep 60\nexec '${real}' "$@"\n`);
    chmodSync(slowRg, 0o755);
    server = spawn(process.execPath, [BIN, 'serve', '--idle', '0'], { env, stdio: 'ignore' });
    await until(() => status(env), (s) => s.running);
  });

  afterAll(() => {
    server?.kill('SIGTERM');
    repo?.cleanup();
    rmSync(xdg, { recursive: true, force: true });
  });

  const task = 'verifyEmail accepts addresses without a domain';

  it('runs retrieve for the binary: the same result and exit code as a process of its own', async () => {
    const before = (await status(env)).served!;
    const served = await run(['retrieve', '--root', repo.root, '--task', task, '--json', '--no-cache'], env);
    expect((await status(env)).served).toBe(before + 1);
    const alone = await run(['retrieve', '--root', repo.root, '--task', task, '--json', '--no-cache'], { ...env, CTXLOOP_NO_SERVER: '1' });
    expect((await status(env)).served).toBe(before + 1); // CTXLOOP_NO_SERVER: not asked
    expect(served.code).toBe(0);
    expect(alone.code).toBe(0);
    const files = (out: string) => (JSON.parse(out) as { files: Array<{ path: string; score: number }> }).files.map((f) => [f.path, f.score]);
    expect(files(served.stdout)).toEqual(files(alone.stdout));
    expect(files(served.stdout)[0]?.[0]).toBe('src/auth/verify.ts');
    expect(served.stderr).toContain('provider offline');
  });

  it('serves clients at once, each its own output', async () => {
    const before = (await status(env)).served!;
    const asks = [
      ['verifyEmail accepts addresses without a domain', 'src/auth/verify.ts'],
      ['the invite route passes the address through', 'src/routes/invite.ts'],
      ['signup throws invalid email', 'src/routes/signup.ts'],
    ] as const;
    const runs = await Promise.all(asks.map(([text]) => run(['retrieve', '--root', repo.root, '--task', text, '--json', '--no-cache'], env)));
    for (const [i, r] of runs.entries()) {
      expect(r.code).toBe(0);
      const result = JSON.parse(r.stdout) as { task: string; files: Array<{ path: string }> };
      expect(result.task).toBe(asks[i]![0]);
      expect(result.files[0]?.path).toBe(asks[i]![1]);
    }
    expect((await status(env)).served).toBe(before + asks.length);
  });

  it('reads a piped task from the client and resolves relative paths against its directory', async () => {
    const before = (await status(env)).served!;
    const r = await new Promise<Ran>((res) => {
      const child = execFile(process.execPath, [BIN, 'retrieve', '--root', '.', '--format', 'paths', '--no-cache'], { cwd: repo.root, env }, (error, stdout, stderr) =>
        res({ code: error ? ((error as { code?: number }).code ?? 1) : 0, signal: null, stdout, stderr }),
      );
      child.stdin!.end(task);
    });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('src/auth/verify.ts');
    expect((await status(env)).served).toBe(before + 1);
  });

  it("runs with the client's environment, not the server's", async () => {
    const r = await run(['retrieve', '--root', repo.root, '--task', task, '--no-cache'], baseEnv(xdg, { CTXLOOP_RG: join(xdg, 'no-such-rg') }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no-such-rg');
    const budget = await run(['retrieve', '--root', repo.root, '--task', task, '--json', '--no-cache'], baseEnv(xdg, { CTXLOOP_BUDGET: 'lots' }));
    expect(budget.code).toBe(2);
    expect(budget.stderr).toContain('CTXLOOP_BUDGET');
  });

  it("resolves a relative path in the client's environment against the client's directory, not the server's", async () => {
    const before = (await status(env)).served!;
    const real = await resolveRgPath(process.env, silentLogger);
    const wrapper = join(repo.root, '..', `${repo.root.split('/').pop()}-rg.sh`);
    const log = `${wrapper}.log`;
    writeFileSync(wrapper, `#!/bin/sh\necho ran >> '${log}'\nexec '${real}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    const r = await new Promise<Ran>((res) => {
      execFile(process.execPath, [BIN, 'retrieve', '--root', '.', '--task', task, '--format', 'paths', '--no-cache'], { cwd: repo.root, env: { ...env, CTXLOOP_RG: `../${wrapper.split('/').pop()}` } }, (error, stdout, stderr) =>
        res({ code: error ? ((error as { code?: number }).code ?? 1) : 0, signal: null, stdout, stderr }),
      );
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('src/auth/verify.ts');
    expect((await status(env)).served).toBe(before + 1);
    expect(existsSync(log)).toBe(true);
  });

  it('reports a bad flag as a run of its own does: one line, exit 2', async () => {
    const r = await run(['retrieve', '--root', repo.root, '--task', task, '--max-cycles', 'nine'], env);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--max-cycles');
    expect(r.stdout).toBe('');
  });

  it('passes a signal on: the run stops on the server with 143, and the server serves on', async () => {
    const { child, done } = start(['retrieve', '--root', repo.root, '--task', task, '--no-cache'], baseEnv(xdg, { CTXLOOP_RG: slowRg }));
    await until(() => status(env), (s) => s.active === 1);
    child.kill('SIGTERM');
    const r = await done;
    expect(r.code).toBe(143);
    expect((await until(() => status(env), (s) => s.active === 0)).active).toBe(0);
    const after = await run(['retrieve', '--root', repo.root, '--task', task, '--format', 'paths', '--no-cache'], env);
    expect(after.stdout.split('\n')[0]).toBe('src/auth/verify.ts');
  });

  it('stops the run of a client that was killed', async () => {
    const before = (await status(env)).served!;
    const { child, done } = start(['retrieve', '--root', repo.root, '--task', task, '--no-cache'], baseEnv(xdg, { CTXLOOP_RG: slowRg }));
    await until(() => status(env), (s) => s.active === 1);
    child.kill('SIGKILL');
    await done;
    // The slow rg sleeps 60 s: the run is over well before, because it was cancelled.
    const after = await until(() => status(env), (s) => s.active === 0, 10_000);
    expect(after.active).toBe(0);
    expect(after.served).toBe(before + 1);
  });

  it('keeps its socket to this user', async () => {
    const { socket } = await status(env);
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(socket, '..')).mode & 0o777).toBe(0o700);
  });

  it.runIf(process.getuid?.() === 0)("never sends a command to another user's socket", async () => {
    const { socket } = await status(env);
    const before = (await status(env)).served!;
    const { chownSync } = await import('node:fs');
    chownSync(socket, 65534, 65534);
    try {
      const r = await run(['retrieve', '--root', repo.root, '--task', task, '--format', 'paths', '--no-cache'], env);
      expect(r.stdout.split('\n')[0]).toBe('src/auth/verify.ts'); // run here, in a process of its own
    } finally {
      chownSync(socket, 0, 0);
    }
    expect((await status(env)).served).toBe(before);
  });

  it('does not start a second server on a running one', async () => {
    const r = await run(['serve', '--idle', '0'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/already running \(pid \d+/);
  });

  it('refuses flags that do not go together', async () => {
    for (const args of [['--status', '--stop'], ['--json'], ['--idle', 'soon'], ['--stop', '--idle', '5'], ['extra']]) {
      const r = await run(['serve', ...args], env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });
});

describe.runIf(existsSync(BIN))('the binary without a working server', () => {
  let repo: TempRepo;
  let xdg: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    repo = makeRepo({ 'src/parse.ts': 'export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n' });
    xdg = mkdtempSync(join(tmpdir(), 'ctxloop-noserve-'));
    env = baseEnv(xdg);
  });
  afterAll(() => {
    repo?.cleanup();
    rmSync(xdg, { recursive: true, force: true });
  });

  it('says in one line why it cannot serve where the cache directory is not one', async () => {
    const file = join(xdg, 'a-file');
    writeFileSync(file, '');
    for (const args of [['serve', '--idle', '1'], ['serve', '--detach']]) {
      const r = await run(args, baseEnv(file));
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/cannot make the server's socket .*ENOTDIR/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('runs the command itself when the socket answers nothing useful, and a new server replaces it', async () => {
    const { socket } = await status(env);
    // A listener that hangs up on every client, as a crashed server's successor might.
    mkdirSync(join(socket, '..'), { recursive: true });
    const rude: Server = createServer((c) => c.destroy());
    await new Promise<void>((res) => rude.listen(socket, res));
    const r = await run(['retrieve', '--root', repo.root, '--task', 'parseConfig throws on an empty file', '--format', 'paths', '--no-cache'], env);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('src/parse.ts');
    await new Promise<void>((res) => rude.close(() => res()));
    // A socket file nobody listens on, as a server killed with SIGKILL leaves it.
    const killed = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('up'))`], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((res) => killed.stdout!.once('data', () => res()));
    killed.kill('SIGKILL');
    await new Promise<void>((res) => killed.once('close', () => res()));
    expect(existsSync(socket)).toBe(true);
    const local = await run(['retrieve', '--root', repo.root, '--task', 'parseConfig throws on an empty file', '--format', 'paths', '--no-cache'], env);
    expect(local.stdout.split('\n')[0]).toBe('src/parse.ts');
    const detached = await run(['serve', '--detach', '--idle', '1'], env);
    expect(detached.code, detached.stderr).toBe(0);
    expect(detached.stderr).toMatch(/server started: pid \d+/);
    const up = await status(env);
    expect(up.running).toBe(true);
    const served = await run(['retrieve', '--root', repo.root, '--task', 'parseConfig throws on an empty file', '--format', 'paths', '--no-cache'], env);
    expect(served.stdout.split('\n')[0]).toBe('src/parse.ts');
    expect((await status(env)).served).toBe(1);
    const stop = await run(['serve', '--stop'], env);
    expect(stop.stdout).toContain(`pid ${up.pid}`);
    await until(async () => existsSync(socket), (there) => !there);
    expect(existsSync(socket)).toBe(false);
    expect((await run(['serve', '--status'], env)).code).toBe(1);
    expect((await run(['serve', '--stop'], env)).stdout).toBe('no server was running\n');
  });
});

describe.runIf(existsSync(BIN))('a server stopped by a signal', () => {
  it('cancels the commands it runs and exits', async () => {
    const repo = makeRepo({ 'src/parse.ts': 'export function parseConfig(text: string) {\n  return JSON.parse(text);\n}\n' });
    const xdg = mkdtempSync(join(tmpdir(), 'ctxloop-sigserve-'));
    try {
      const env = baseEnv(xdg);
      const real = await resolveRgPath(process.env, silentLogger);
      const slowRg = join(xdg, 'slow-rg.sh');
      writeFileSync(slowRg, `#!/bin/sh\nsleep 60\nexec '${real}' "$@"\n`);
      chmodSync(slowRg, 0o755);
      const server = start(['serve', '--idle', '0'], env);
      await until(() => status(env), (s) => s.running);
      const client = start(['retrieve', '--root', repo.root, '--task', 'parseConfig throws', '--no-cache'], baseEnv(xdg, { CTXLOOP_RG: slowRg }));
      await until(() => status(env), (s) => s.active === 1);
      const asked = Date.now();
      server.child.kill('SIGTERM');
      const [ran, served] = await Promise.all([client.done, server.done]);
      expect(Date.now() - asked).toBeLessThan(20_000);
      expect(ran.code).toBe(130);
      expect(served.code).toBe(143);
      expect(served.stderr).toMatch(/stopped after 1 command\b/);
      expect(existsSync((await status(env)).socket)).toBe(false);
    } finally {
      repo.cleanup();
      rmSync(xdg, { recursive: true, force: true });
    }
  });
});
