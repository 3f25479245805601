/**
 * Faults injected into real processes: ripgrep that crashes, is killed, prints garbage or hangs
 * (CTXLOOP_RG pointing at a script); a cache on a full or read-only disk (a real tmpfs, when
 * this machine lets the test mount one), in a place that cannot be a directory, or corrupt;
 * Ctrl-C in the middle of a run. Each ends with the result printed and a warning (exit 0), or
 * for Ctrl-C with exit 130 and the cache as it was.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';
import { startStubLlm, type StubLlm } from '../helpers/stub-llm.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');
const TASK = 'verifyEmail accepts addresses without a domain';
const tempDir = useTempDirs();

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 30_000, env: { ...clean, NO_COLOR: '1', ...env } }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: unknown }).code ?? null) : 0;
      done({ code: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}

function fakeRg(script: string): string {
  const path = join(tempDir(), 'rg');
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

let repo: TempRepo;
beforeAll(() => {
  repo = makeRepo({
    'src/auth/verify-email.ts': 'export function verifyEmail(address: string): boolean {\n  return /@.+\\./.test(address);\n}\n',
    'src/routes/signup.ts': "import { verifyEmail } from '../auth/verify-email';\nexport const signup = (e: string) => verifyEmail(e);\n",
  });
  // short enough for a test; the default is a minute
  writeFileSync(join(repo.root, '.ctxloop.json'), JSON.stringify({ searchTimeout: 700 }));
});
afterAll(() => repo.cleanup());

describe.runIf(existsSync(BIN))('ripgrep failing', () => {
  it.each([
    ['exits 2 with an error', 'echo "rg: simulated failure" >&2\nexit 2', /content search failed \(ripgrep failed in .*: simulated failure\)/],
    ['is killed by a signal', 'kill -9 $$', /content search failed \(ripgrep failed in .*: killed by SIGKILL\)/],
    ['prints what is not its JSON', 'echo "Segmentation fault (core dumped)"', /content search failed \(ripgrep printed something other than its match output/],
    ['hangs past the search timeout', 'exec sleep 30', /content search failed \(ripgrep timed out after 700 ms/],
    ['prints without end and never a separator', 'exec yes /etc/passwd', /content search failed \(ripgrep printed something other than its match output/],
    // as `CTXLOOP_RG=/bin/true`: 0 files, and not a word
    ['exits 0 in silence', 'exit 0', /content search failed \(.* exited 0 without printing anything, which ripgrep does not do here: is it ripgrep\?\)/],
  ])('when it %s: the result rests on file names, with one warning, exit 0', async (_label, script, warning) => {
    const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--no-cache'], { CTXLOOP_RG: fakeRg(script) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).files.map((f: { path: string }) => f.path)).toContain('src/auth/verify-email.ts');
    expect(r.stderr).toMatch(warning);
    expect(r.stderr.match(/content search failed/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('that cannot be started at all is a clear failure, exit 1', async () => {
    const notExecutable = join(tempDir(), 'rg');
    writeFileSync(notExecutable, 'not a program');
    const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--no-cache'], { CTXLOOP_RG: notExecutable });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ctxloop: CTXLOOP_RG=.* is not an executable file/m);
  });
});

describe.runIf(existsSync(BIN) && existsSync('/dev/full'))('output that cannot be written', () => {
  it.each([['md'], ['json']])('(%s to a full disk) is one line on stderr and exit 1', async (format) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [BIN, 'retrieve', '--root', repo.root, '--task', TASK, '--format', format, '--no-cache', '--quiet'], { stdio: ['ignore', full, 'pipe'], env: clean });
    closeSync(full);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code).toBe(1);
    expect(stderr).toBe('ctxloop: cannot write the output: ENOSPC: no space left on device, write\n');
  });
});

describe.runIf(existsSync(BIN) && existsSync('/dev/full'))('stderr that cannot be written', () => {
  const clean = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
  const withStderr = (args: string[], stderr: 'full' | 'closed', input?: string): Promise<{ code: number | null; stdout: string }> => {
    const full = stderr === 'full' ? openSync('/dev/full', 'w') : 'pipe';
    const child = spawn(process.execPath, [BIN, ...args], { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', full], env: clean() });
    if (typeof full === 'number') closeSync(full);
    else child.stderr?.destroy(); // the reader of stderr went away: EPIPE
    if (input !== undefined) child.stdin?.end(input);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    return new Promise((done) => child.on('close', (code) => done({ code, stdout })));
  };

  it.each([['full'], ['closed']] as const)('(%s) loses only the progress: the result is printed and the exit is 0 (it crashed, exit 1, nothing printed)', async (how) => {
    const r = await withStderr(['retrieve', '--root', repo.root, '--task', TASK, '--format', 'paths', '--no-cache', '--verbose'], how);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('src/auth/verify-email.ts');
  });

  it('lets the MCP server answer (it died before initialize)', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const r = await withStderr(['mcp', '--root', repo.root, '--no-cache'], 'full', `${init}\n`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 0, result: { serverInfo: { name: 'ctxloop' } } });
  });
});

describe.runIf(existsSync(BIN))('a cache that cannot be used', () => {
  const cacheFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir) : []);

  it.runIf(existsSync('/proc/self'))('under /proc (where the recursive mkdir of Node never returned): result printed, warning, exit 0', async () => {
    const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--cache', '/proc/ctxloop-cache-test']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).files[0].path).toBe('src/auth/verify-email.ts');
    expect(r.stderr).toMatch(/warning: cache: cannot write \/proc\/ctxloop-cache-test\/.*ENOENT/);
  });

  it('in a place that cannot be a directory: result printed, warning, exit 0', async () => {
    const file = join(tempDir(), 'not-a-dir');
    writeFileSync(file, 'x');
    const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--cache', join(file, 'cache')]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).files[0].path).toBe('src/auth/verify-email.ts');
    expect(r.stderr).toMatch(/warning: cache: cannot write .*ENOTDIR/);
  });

  it('that is corrupt: moved aside, rebuilt, exit 0', async () => {
    const dir = tempDir();
    await run(['retrieve', '--root', repo.root, '--task', TASK, '--cache', dir]);
    const [file] = cacheFiles(dir);
    writeFileSync(join(dir, file!), '{"version":1,"facts":{"x":');
    const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--cache', dir]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).files[0].path).toBe('src/auth/verify-email.ts');
    expect(r.stderr).toMatch(/cache: .* is unreadable .* moved to/);
    expect(JSON.parse(readFileSync(join(dir, file!), 'utf8')).facts).toBeTypeOf('object');
  });

  describe.runIf(canMountTmpfs())('on a real tmpfs', () => {
    const mounts: string[] = [];
    const mount = (options: string): string => {
      const dir = mkdtempSync(join(tmpdir(), 'ctxloop-tmpfs-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
      mounts.push(dir);
      return dir;
    };
    afterEach(() => {
      for (const dir of mounts.splice(0)) {
        execFileSync('umount', [dir]);
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('that is full: result printed, warning naming ENOSPC, no temp file left, exit 0', async () => {
      const dir = mount('size=16k');
      // fill it to the last block
      try {
        writeFileSync(join(dir, 'fill'), Buffer.alloc(64 * 1024));
      } catch {
        // ENOSPC is the point: what was written stays
      }
      const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--cache', join(dir, 'cache')]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).files[0].path).toBe('src/auth/verify-email.ts');
      expect(r.stderr).toMatch(/warning: cache: cannot write .*ENOSPC/);
      expect(cacheFiles(join(dir, 'cache')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    });

    it('that is read-only: result printed, warning naming EROFS, exit 0', async () => {
      const dir = mount('size=1m,ro');
      const r = await run(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--cache', dir]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).files[0].path).toBe('src/auth/verify-email.ts');
      expect(r.stderr).toMatch(/warning: cache: cannot write .*EROFS/);
    });
  });
});

describe.runIf(existsSync(BIN))('Ctrl-C mid-run', () => {
  let stub: StubLlm;
  beforeAll(async () => {
    // a model that takes its time, so the run is surely in the middle of a call
    stub = await startStubLlm(() => ({ delay: 20_000, then: { json: {} } }));
  });
  afterAll(() => stub.close());

  /** Starts the binary, waits for `ready()`, sends SIGINT, and collects what it printed. */
  function interrupt(args: string[], env: Record<string, string>, ready: () => boolean, signals: NodeJS.Signals[] = ['SIGINT']): Promise<Run & { sawReady: boolean }> {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...clean, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    let sawReady = false;
    const poll = setInterval(() => {
      if (ready()) {
        sawReady = true;
        clearInterval(poll);
        // apart, so that two of a kind are not merged into one pending signal
        signals.forEach((signal, i) => setTimeout(() => child.kill(signal), i * 300));
      }
    }, 20);
    const guard = setTimeout(() => child.kill('SIGKILL'), 25_000);
    return new Promise((done) =>
      child.on('close', (code) => {
        clearInterval(poll);
        clearTimeout(guard);
        done({ code, stdout, stderr, sawReady });
      }),
    );
  }

  it('while a model call is in flight: exit 130, a JSON error, the cache as it was', async () => {
    const cache = tempDir();
    // a first, offline run fills the cache
    expect((await run(['retrieve', '--root', repo.root, '--task', TASK, '--cache', cache, '--provider', 'offline'])).code).toBe(0);
    // the store and the search index beside it
    const files = readdirSync(cache).sort();
    const before = files.map((f) => readFileSync(join(cache, f), 'utf8'));
    const sent = stub.requests.length;
    const r = await interrupt(['retrieve', '--root', repo.root, '--task', TASK, '--json', '--cache', cache], { OPENAI_BASE_URL: stub.openaiURL, OPENAI_API_KEY: 'x' }, () => stub.requests.length > sent);
    expect(r.sawReady).toBe(true);
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'aborted', message: 'interrupted' } });
    expect(r.stderr).toMatch(/ctxloop: interrupted/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(cache).sort()).toEqual(files);
    expect(files.map((f) => readFileSync(join(cache, f), 'utf8'))).toEqual(before);
  });

  it('while ripgrep runs: rg is stopped, exit 130', async () => {
    const marker = join(tempDir(), 'rg-started');
    const rg = fakeRg(`touch ${marker}\nexec sleep 30`);
    mkdirSync(join(repo.root, 'slow'), { recursive: true });
    const r = await interrupt(['retrieve', '--root', repo.root, '--task', TASK, '--no-cache'], { CTXLOOP_RG: rg }, () => existsSync(marker));
    expect(r.sawReady).toBe(true);
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/ctxloop: interrupted/);
  });

  /** Whether the process a fake rg wrote its pid for still lives, 2 s on (a killed orphan is a zombie until init reaps it). */
  const alive = async (pidFile: string): Promise<boolean> => {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    for (let waited = 0; waited < 2000; waited += 50) {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
        if (state === 'Z') return false;
      } catch {
        return false;
      }
      await new Promise((done) => setTimeout(done, 50));
    }
    return true;
  };

  it.runIf(process.platform === 'linux')('stopped by SIGTERM (timeout, an MCP host, a container) while ripgrep runs: rg is stopped, exit 143 (Node died at once and rg lived on)', async () => {
    const dir = tempDir();
    const rg = fakeRg(`echo $$ > ${dir}/pid\ntouch ${dir}/started\nexec sleep 30`);
    const r = await interrupt(['retrieve', '--root', repo.root, '--task', TASK, '--no-cache'], { CTXLOOP_RG: rg }, () => existsSync(join(dir, 'started')), ['SIGTERM']);
    expect(r.sawReady).toBe(true);
    expect(r.code).toBe(143);
    expect(r.stderr).toMatch(/ctxloop: interrupted/);
    expect(await alive(join(dir, 'pid'))).toBe(false);
  });

  it.runIf(process.platform === 'linux')('a second Ctrl-C leaves at once, and takes an rg deaf to SIGTERM with it', async () => {
    const dir = tempDir();
    const rg = fakeRg(`trap '' TERM\necho $$ > ${dir}/pid\ntouch ${dir}/started\nsleep 30`);
    const r = await interrupt(['retrieve', '--root', repo.root, '--task', TASK, '--no-cache'], { CTXLOOP_RG: rg }, () => existsSync(join(dir, 'started')), ['SIGINT', 'SIGINT']);
    expect(r.sawReady).toBe(true);
    expect(r.code).toBe(130);
    expect(await alive(join(dir, 'pid'))).toBe(false);
  });
});

function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const dir = join(resolve(__dirname), `.mount-probe-${process.pid}`);
  try {
    mkdirSync(dir);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', dir], { stdio: 'ignore' });
    execFileSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    try {
      execFileSync('rmdir', [dir], { stdio: 'ignore' });
    } catch {
      // never created
    }
  }
}
