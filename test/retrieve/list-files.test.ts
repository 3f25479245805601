import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchScope } from '../../src/core/deps.js';
import { isCtxloopError } from '../../src/core/errors.js';
import { createSearcher } from '../../src/retrieve/dispatch.js';
import { listSearchableFiles } from '../../src/retrieve/list.js';
import { holdsDevice } from '../../src/retrieve/rg-process.js';
import { resolveRgPath } from '../../src/retrieve/rg-path.js';
import { silentLogger } from '../../src/core/log.js';
import { useTempRepos } from '../helpers/make-repo.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const repo = useTempRepos();
const tempDir = useTempDirs();

function scopeOf(root: string, extra: Partial<SearchScope> = {}): SearchScope {
  return { root, scope: [], include: [], exclude: [], maxFileSize: 1_000_000, concurrency: 4, ...extra };
}

describe('listFiles', () => {
  it('honors root and nested .gitignore files, relative to their directory, and .git/info/exclude', async () => {
    const r = repo({
      '.gitignore': 'dist/\n*.log\n',
      'src/a.ts': 'a',
      'dist/out.js': 'x',
      'debug.log': 'x',
      'pkg/.gitignore': '/local\n*.tmp\n!keep.log\n',
      'pkg/local/x.ts': 'x',
      'pkg/sub/local/y.ts': 'y',
      'pkg/sub/z.tmp': 'z',
      'pkg/keep.log': 'k',
      'local/w.ts': 'w',
      'private.txt': 'p',
    });
    writeFileSync(join(r.root, '.git/info/exclude'), 'private.txt\n');
    const files = await createSearcher().listFiles(scopeOf(r.root));
    expect(files).toEqual(['.gitignore', 'local/w.ts', 'pkg/.gitignore', 'pkg/keep.log', 'pkg/sub/local/y.ts', 'src/a.ts']);
  });

  it('honors .gitignore outside a git repository too', async () => {
    const r = repo({ '.gitignore': 'gen/\n', 'gen/a.ts': 'a', 'b.ts': 'b' }, { git: false });
    expect(await createSearcher().listFiles(scopeOf(r.root))).toEqual(['.gitignore', 'b.ts']);
  });

  it('skips vendored, generated, minified, lock, secret, binary and oversized files and counts them', async () => {
    const r = repo({
      'src/app.ts': 'app',
      'node_modules/lib/index.js': 'x',
      'vendor/pkg/a.go': 'x',
      'static/jquery.min.js': 'x',
      'package-lock.json': '{}',
      'yarn.lock': 'x',
      '.env': 'KEY=1',
      'deploy/id_rsa': 'key',
      'certs/server.pem': 'pem',
      'img/logo.png': 'png',
      'big.txt': 'x'.repeat(2048),
      'dist/bundle.js': 'kept: build output is only demoted later',
    });
    const list = await listSearchableFiles(scopeOf(r.root, { maxFileSize: 1024 }), { rgPath: await resolveRgPath(process.env, silentLogger), logger: silentLogger });
    expect(list.files).toEqual(['dist/bundle.js', 'src/app.ts']);
    expect(list.avgSize).toBe((3 + 40) / 2);
    // vendored directories are pruned from the walk and oversized files left out by rg: not counted
    expect(list.skipped).toEqual({ minified: 1, lock: 2, secret: 3, binary: 1 });
  });

  it('walks deep trees', async () => {
    const deep = Array.from({ length: 20 }, (_, i) => `d${i}`).join('/');
    const r = repo({ [`${deep}/leaf.ts`]: 'leaf' });
    expect(await createSearcher().listFiles(scopeOf(r.root))).toEqual([`${deep}/leaf.ts`]);
  });

  it('neither follows nor lists symlinks, and survives loops', async () => {
    const outside = repo({ 'secret.ts': 'outside' }, { git: false });
    const r = repo({ 'src/a.ts': 'a' });
    symlinkSync(outside.root, join(r.root, 'out-dir'));
    symlinkSync(join(outside.root, 'secret.ts'), join(r.root, 'out-file.ts'));
    mkdirSync(join(r.root, 'loop'));
    symlinkSync('..', join(r.root, 'loop/up'));
    expect(await createSearcher().listFiles(scopeOf(r.root))).toEqual(['src/a.ts']);
    expect(await createSearcher().listFiles(scopeOf(r.root, { scope: ['out-dir'] }))).toEqual([]);
  });

  it('applies exclude (also to directories), include, and scope', async () => {
    const r = repo({ 'src/a.ts': 'a', 'src/b.js': 'b', 'src/legacy/c.ts': 'c', 'lib/d.ts': 'd', 'e.md': 'e' });
    const searcher = createSearcher();
    expect(await searcher.listFiles(scopeOf(r.root, { exclude: ['legacy', '*.md'] }))).toEqual(['lib/d.ts', 'src/a.ts', 'src/b.js']);
    expect(await searcher.listFiles(scopeOf(r.root, { include: ['*.ts'] }))).toEqual(['lib/d.ts', 'src/a.ts', 'src/legacy/c.ts']);
    expect(await searcher.listFiles(scopeOf(r.root, { scope: ['src/legacy', './lib/d.ts'] }))).toEqual(['lib/d.ts', 'src/legacy/c.ts']);
  });

  it('reads globs with a slash against the whole path, and globs without one against any name', async () => {
    const r = repo({ 'src/a.ts': 'a', 'src/b.js': 'b', 'src/legacy/c.ts': 'c', 'lib/d.ts': 'd' });
    const list = (extra: Partial<SearchScope>) => createSearcher().listFiles(scopeOf(r.root, extra));
    expect(await list({ include: ['src/**'] })).toEqual(['src/a.ts', 'src/b.js', 'src/legacy/c.ts']);
    expect(await list({ include: ['src/*.ts', '*.js'] })).toEqual(['src/a.ts', 'src/b.js']);
    expect(await list({ exclude: ['src/legacy/**'] })).toEqual(['lib/d.ts', 'src/a.ts', 'src/b.js']);
    expect(await list({ exclude: ['src/*'] })).toEqual(['lib/d.ts']);
  });

  it('applies the root .gitignore to a scoped walk', async () => {
    const r = repo({ '.gitignore': 'gen/\n', 'src/gen/x.ts': 'x', 'src/y.ts': 'y' });
    expect(await createSearcher().listFiles(scopeOf(r.root, { scope: ['src'] }))).toEqual(['src/y.ts']);
  });

  it('rejects a scope outside the root or missing, as a usage error', async () => {
    const r = repo({ 'a.ts': 'a' });
    const searcher = createSearcher();
    await expect(searcher.listFiles(scopeOf(r.root, { scope: ['../elsewhere'] }))).rejects.toMatchObject({ code: 'bad_scope' });
    const error = await searcher.listFiles(scopeOf(r.root, { scope: ['nope'] })).catch((e: unknown) => e);
    expect(isCtxloopError(error) && error.code).toBe('bad_scope');
  });

  it('lists a file whose name holds a line break, and still refuses a list that is not rg\'s', async () => {
    const r = repo({ 'a.ts': 'x\n', 'new\nline.ts': 'x\n' });
    const rgPath = await resolveRgPath(process.env, silentLogger);
    expect((await listSearchableFiles(scopeOf(r.root), { rgPath, logger: silentLogger })).files).toEqual(['a.ts', 'new\nline.ts']);
    const fake = join(r.root, 'fake-rg.sh');
    writeFileSync(fake, '#!/bin/sh\necho "Segmentation fault"\n');
    chmodSync(fake, 0o755);
    const error = await listSearchableFiles(scopeOf(r.root), { rgPath: fake, logger: silentLogger }).catch((e: unknown) => e);
    expect(isCtxloopError(error) && error.code).toBe('search_failed');
  });

  it('stops a program that prints without end and never a separator, long before its timeout', async () => {
    const r = repo({ 'a.ts': 'x\n' });
    const fake = join(r.root, 'fake-rg.sh');
    writeFileSync(fake, '#!/bin/sh\nexec yes /etc/passwd\n');
    chmodSync(fake, 0o755);
    const started = Date.now();
    const error = await listSearchableFiles(scopeOf(r.root), { rgPath: fake, logger: silentLogger, timeout: 60_000 }).catch((e: unknown) => e);
    expect(isCtxloopError(error) && error.code).toBe('search_failed');
    expect((error as Error).message).toMatch(/record of more than 16 MB: not its output/);
    // gathered record by record it took the full timeout, copying the growing record at every chunk
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('reads what rg printed though a child it left behind holds its pipe open', async () => {
    const r = repo({ 'src/a.ts': 'x\n' });
    const fake = join(r.root, 'fake-rg.sh');
    const pid = join(r.root, 'orphan.pid');
    // a wrapper that starts something in the background and lists one file
    writeFileSync(fake, `#!/bin/sh\nsleep 30 &\necho $! > '${pid}'\nprintf 'src/a.ts\\0'\n`);
    chmodSync(fake, 0o755);
    const started = Date.now();
    try {
      const list = await listSearchableFiles(scopeOf(r.root), { rgPath: fake, logger: silentLogger, timeout: 60_000 });
      expect(list.files).toEqual(['src/a.ts']);
      // it used to wait for the orphan, then for the timeout
      expect(Date.now() - started).toBeLessThan(20_000);
      // and the orphan went on running after the call
      if (process.platform === 'linux') expect(await stillRunning(Number(readFileSync(pid, 'utf8')))).toBe(false);
    } finally {
      killQuietly(Number(readFileSync(pid, 'utf8')));
    }
  });

  it.runIf(process.platform === 'linux')('kills what a wrapper started when it runs out of time, not the wrapper alone', async () => {
    const r = repo({ 'src/a.ts': 'x\n' });
    const fake = join(r.root, 'fake-rg.sh');
    const pid = join(r.root, 'job.pid');
    writeFileSync(fake, `#!/bin/sh\nsleep 30 &\necho $! > '${pid}'\nexec sleep 30\n`);
    chmodSync(fake, 0o755);
    try {
      const error = await listSearchableFiles(scopeOf(r.root), { rgPath: fake, logger: silentLogger, timeout: 500 }).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/timed out/);
      expect(await stillRunning(Number(readFileSync(pid, 'utf8')))).toBe(false);
    } finally {
      killQuietly(Number(readFileSync(pid, 'utf8')));
    }
  });

  it.runIf(process.platform !== 'win32')('lists past a root .gitignore that is a FIFO or a directory (rg blocked on the FIFO until its timeout), saying so', async () => {
    for (const make of [(path: string) => execFileSync('mkfifo', [path]), (path: string) => mkdirSync(path)]) {
      const r = repo({ 'src/v.ts': 'export function verifyEmail() {}\n' });
      make(join(r.root, '.gitignore'));
      const warnings: string[] = [];
      const list = await listSearchableFiles(scopeOf(r.root), { rgPath: await resolveRgPath(process.env, silentLogger), logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) }, timeout: 5000 });
      expect(list.files).toEqual(['src/v.ts']);
      expect(warnings).toEqual(['.gitignore is not a regular file of at most 16 MB inside the root: no .gitignore rules are applied']);
    }
  });

  it.runIf(process.platform === 'linux')('leaves out, and names, a file whose name is not UTF-8 (it was listed under a name no file has, ranked, then dropped unsaid)', async () => {
    const r = repo({ 'src/ok.ts': 'export function resetPassword() {}\n' });
    writeFileSync(Buffer.concat([Buffer.from(join(r.root, 'src', 'reset')), Buffer.from([0xff]), Buffer.from('.ts')]), 'export function resetPassword() {}\n');
    const warnings: string[] = [];
    const list = await listSearchableFiles(scopeOf(r.root), { rgPath: await resolveRgPath(process.env, silentLogger), logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) } });
    expect(list.files).toEqual(['src/ok.ts']);
    expect(list.skipped).toMatchObject({ undecodable_name: 1 });
    expect(warnings).toEqual([`1 file name(s) under ${r.root} are not valid UTF-8: those files are not searched`]);
  });

  it('warns of ignore rules rg cannot read: one it cannot parse, and one too large to compile, which cost the whole file its rules unsaid', async () => {
    const r = repo({ '.gitignore': `secret.txt\n[z-a]\n`, 'secret.txt': 'a', 'src/a.ts': 'b', 'pkg/.gitignore': `local.ts\n${'?'.repeat(200_000)}\n`, 'pkg/local.ts': 'c' });
    const warnings: string[] = [];
    const list = await listSearchableFiles(scopeOf(r.root), { rgPath: await resolveRgPath(process.env, silentLogger), logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) } });
    // rg applies the root file but none of pkg/.gitignore's rules: what it lists is said
    expect(list.files).toEqual(['.gitignore', 'pkg/.gitignore', 'pkg/local.ts', 'src/a.ts']);
    expect(warnings).toEqual([
      './.gitignore: line 2: an ignore rule ripgrep cannot parse is not applied',
      `an ignore file under ${r.root} holds a rule too large for ripgrep to compile (error building NFA): none of that file's rules are applied, so the files it ignores are searched`,
    ]);
  });

  it('names the file and line of a rule rg cannot parse, never the rule: a nested .gitignore linked outside the root is read by rg, and its line was printed', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'creds.txt'), 'password = hunter2_{unclosed\n');
    const r = repo({ 'src/a.ts': 'b', 'src/sub/x.ts': 'c' });
    symlinkSync(join(outside, 'creds.txt'), join(r.root, 'src/sub/.gitignore'));
    const warnings: string[] = [];
    await listSearchableFiles(scopeOf(r.root), { rgPath: await resolveRgPath(process.env, silentLogger), logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) } });
    expect(warnings).toEqual(['./src/sub/.gitignore: line 1: an ignore rule ripgrep cannot parse is not applied']);
    expect(warnings.join('\n')).not.toContain('hunter2');
  });

  it.runIf(process.platform === 'linux')('stops an rg whose memory grows past its bound (an ignore file that never ends took it to 16 GB)', async () => {
    const r = repo({ 'src/a.ts': 'x\n' });
    const fake = join(r.root, 'greedy-rg.cjs');
    // grows by 50 MB every 20 ms and never prints
    writeFileSync(fake, `#!${process.execPath}\nconst kept = [];\nsetInterval(() => kept.push(Buffer.alloc(50e6, 1)), 20);\n`);
    chmodSync(fake, 0o755);
    const { runRg } = await import('../../src/retrieve/rg-process.js');
    const started = Date.now();
    const error = await runRg({ rgPath: fake, root: r.root, args: [], logger: silentLogger, timeout: 60_000, maxMemory: 300e6 }, () => undefined).catch((e: unknown) => e);
    expect(isCtxloopError(error) && error.code).toBe('search_failed');
    expect((error as Error).message).toMatch(/^ripgrep held more than 300 MB of memory in .* and was stopped \(an ignore file that never ends/);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('caches the listing per scope for the searcher lifetime', async () => {
    const r = repo({ 'a.ts': 'a' });
    const searcher = createSearcher();
    expect(await searcher.listFiles(scopeOf(r.root))).toEqual(['a.ts']);
    r.write('b.ts', 'b');
    expect(await searcher.listFiles(scopeOf(r.root))).toEqual(['a.ts']);
    expect(await searcher.listFiles(scopeOf(r.root, { exclude: ['x'] }))).toEqual(['a.ts', 'b.ts']);
  });
});

/** Alive and not a zombie waiting for its reaper (Linux). */
async function stillRunning(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    let state: string;
    try {
      state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0]!;
    } catch {
      return false;
    }
    if (state === 'Z') return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}


describe.runIf(process.platform === 'linux' && existsSync('/dev/shm'))('holdsDevice (rg found stuck on a device)', () => {
  it('is a device or kernel file held open, not a regular file or directory under /dev (a repository in /dev/shm lost its content search)', async () => {
    const dir = mkdtempSync('/dev/shm/ctxloop-');
    try {
      writeFileSync(join(dir, 'a.ts'), 'x');
      const holding = async (path: string): Promise<boolean> => {
        // a process holding `path` open, as rg holds what it reads: asked once it does (a fixed
        // wait lost the race to a slow start when two test files ran at once)
        const child = spawn(process.execPath, ['-e', `require('fs').openSync(${JSON.stringify(path)}, 'r'); setInterval(() => {}, 1000)`], { stdio: 'ignore' });
        try {
          const held = path.replace(/^\/proc\/self\//, `/proc/${child.pid}/`);
          const opened = (): boolean => {
            try {
              return readdirSync(`/proc/${child.pid}/fd`).some((fd) => readlinkSync(`/proc/${child.pid}/fd/${fd}`) === held);
            } catch {
              return false;
            }
          };
          for (const until = Date.now() + 20_000; !opened() && Date.now() < until; ) await new Promise((done) => setTimeout(done, 20));
          return holdsDevice(child.pid!);
        } finally {
          child.kill('SIGKILL');
        }
      };
      expect(await holding(join(dir, 'a.ts'))).toBe(false);
      expect(await holding(dir)).toBe(false);
      expect(await holding('/dev/zero')).toBe(true);
      expect(await holding('/proc/self/status')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
