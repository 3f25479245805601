/**
 * A hostile repository's file system: links out of the root, link loops, FIFOs, sockets and
 * devices where code files should be, a config file that is a FIFO or a link. The built binary
 * must finish (the exec timeout turns a hang into a failure), read nothing outside the root and
 * refuse a --scope that leaves it.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCache } from '../../src/cache/store.js';
import { createFactsReader } from '../../src/facts/reader.js';
import { makeRepo, type TempRepo } from '../helpers/make-repo.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');
const OUTSIDE = 'OUTSIDE_ROOT_CONTENT_31337';
const isRoot = process.getuid?.() === 0;

function run(args: string[], cwd?: string): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd, timeout: 20_000, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      const e = error as (Error & { code?: number; killed?: boolean }) | null;
      done({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, stdout, stderr, killed: e?.killed === true });
    });
  });
}

let repo: TempRepo;
let outside: string;
let socket: Server;
beforeAll(async () => {
  outside = mkdtempSync(join(tmpdir(), 'ctxloop-outside-'));
  writeFileSync(join(outside, 'verify_email_outside.ts'), `export function verifyEmail() { return "${OUTSIDE}"; }\n`);
  mkdirSync(join(outside, 'info'));
  // were this read as the repository's .git/info/exclude, it would hide src/
  writeFileSync(join(outside, 'info', 'exclude'), 'src/\n');
  repo = makeRepo({ 'src/verify.ts': 'export function verifyEmail(address: string) {\n  return address.includes("@");\n}\n' }, { git: false });
  const src = join(repo.root, 'src');
  symlinkSync(join(outside, 'verify_email_outside.ts'), join(src, 'verifyEmail.leak.ts'));
  symlinkSync(outside, join(src, 'outside-dir'));
  symlinkSync(outside, join(repo.root, '.git'));
  symlinkSync('loop-b', join(src, 'loop-a'));
  symlinkSync('loop-a', join(src, 'loop-b'));
  symlinkSync('.', join(src, 'self'));
  symlinkSync('/dev/zero', join(src, 'verifyEmail.zero.ts'));
  symlinkSync('/dev/urandom', join(src, 'verifyEmail.random.ts'));
  execFileSync('mkfifo', [join(src, 'verifyEmail.fifo.ts')]);
  socket = createServer();
  await new Promise<void>((done) => socket.listen(join(src, 'verifyEmail.sock.ts'), done));
  if (isRoot) execFileSync('mknod', ['-m', '666', join(src, 'verifyEmail.chardev.ts'), 'c', '1', '5']);
});
afterAll(async () => {
  await new Promise((done) => socket.close(done));
  repo.cleanup();
  rmSync(outside, { recursive: true, force: true });
});

describe.runIf(existsSync(BIN))('a repository full of links, loops, FIFOs, sockets and devices', () => {
  it('is searched to the end, and only its regular files inside the root are read', async () => {
    const r = await run(['retrieve', '--root', repo.root, '--task', `verifyEmail ${OUTSIDE}`, '--json', '--with-content', '--no-cache', '--threshold', '0']);
    expect(r.killed).toBe(false);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    const paths = [...result.files, ...result.candidates].map((f: { path: string }) => f.path);
    // the outside .git/info/exclude was not applied, and nothing but the one regular file is there
    expect(paths).toEqual(['src/verify.ts']);
    expect(JSON.stringify(result.files)).not.toContain(OUTSIDE);
  });

  it("never opens a link planted as a cache file in a cache the repository's config keeps inside it: not read, not printed, the run goes on", async () => {
    const hostile = makeRepo({ 'src/a.ts': 'export function verifyEmail() {}\n', '.ctxloop.json': '{"cache": ".c"}' }, { git: false });
    try {
      // a first run names the files; each is then replaced by a link to a file outside the root
      expect((await run(['retrieve', '--root', hostile.root, '--task', 'verifyEmail'])).code).toBe(0);
      const cacheDir = join(hostile.root, '.c');
      const planted = readdirSync(cacheDir).filter((name) => name.endsWith('.json'));
      expect(planted.some((name) => name.endsWith('.search.json'))).toBe(true);
      const target = join(outside, 'shadow');
      writeFileSync(target, 'SHADOW:$6$salt$hash:19000:0:99999:7:::\n');
      for (const name of planted) {
        rmSync(join(cacheDir, name));
        symlinkSync(target, join(cacheDir, name));
      }
      const r = await run(['retrieve', '--root', hostile.root, '--task', 'verifyEmail', '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).files.map((f: { path: string }) => f.path)).toEqual(['src/a.ts']);
      expect(r.stdout + r.stderr).not.toContain('SHADOW');
      expect(r.stderr).toMatch(/cache: .* is unreadable \(.*ELOOP.*\); moved to .*\.corrupt-\d+, starting empty/);
      const stats = await run(['cache', 'stats', '--cache', cacheDir, '--root', hostile.root]);
      expect(stats.stdout + stats.stderr).not.toContain('SHADOW');
      // the link was moved, not what it leads to; the next run has its cache back, in silence
      expect(readFileSync(target, 'utf8')).toBe('SHADOW:$6$salt$hash:19000:0:99999:7:::\n');
      const again = await run(['retrieve', '--root', hostile.root, '--task', 'verifyEmail', '--json']);
      expect(again.code).toBe(0);
      expect(again.stderr).not.toMatch(/cache:/);
      for (const name of planted) expect(lstatSync(join(cacheDir, name)).isFile(), name).toBe(true);
    } finally {
      hostile.cleanup();
    }
  });

  it('refuses a --scope outside the root, through a link or not, with exit 2', async () => {
    for (const scope of ['..', '../elsewhere', '/etc', 'src/outside-dir', 'src/outside-dir/verify_email_outside.ts']) {
      const r = await run(['retrieve', '--root', repo.root, '--task', 'verifyEmail', '--no-cache', '--scope', scope]);
      expect(r.code, scope).toBe(2);
      expect(r.stderr, scope).toMatch(/^ctxloop: scope (is outside the root|not found)/);
    }
  });

  it('refuses a scope naming a FIFO, a socket or a device, without blocking on it (rg was given no path and scanned the whole root, exit 0)', async () => {
    for (const scope of ['src/verifyEmail.fifo.ts', 'src/verifyEmail.sock.ts', ...(isRoot ? ['src/verifyEmail.chardev.ts'] : [])]) {
      const r = await run(['retrieve', '--root', repo.root, '--task', 'verifyEmail', '--no-cache', '--format', 'paths', '--scope', scope]);
      expect(r.killed, scope).toBe(false);
      expect(r.code, scope).toBe(2);
      expect(r.stderr, scope).toBe(`ctxloop: scope is not a directory or a regular file: ${scope}\n`);
    }
  });

  it('never reads a path that leaves the root, whatever the facts reader is asked for', async () => {
    const reader = createFactsReader({ cache: await createCache({ dir: join(repo.root, '..', 'nocache'), root: repo.root }) });
    const asked = ['src/verifyEmail.leak.ts', 'src/outside-dir/verify_email_outside.ts', '../' + outside.split('/').pop() + '/verify_email_outside.ts', join(outside, 'verify_email_outside.ts'), 'src/verifyEmail.zero.ts', 'src/verifyEmail.random.ts', 'src/verifyEmail.fifo.ts', 'src/verifyEmail.sock.ts', 'src/loop-a', 'src/self/verify.ts'];
    const facts = await reader.read(repo.root, asked);
    expect([...facts.keys()]).toEqual(['src/self/verify.ts']);
    for (const path of asked.slice(0, -1)) expect(await reader.readText(repo.root, path), path).toBeUndefined();
  });
});

describe.runIf(existsSync(BIN))('a hostile config file', () => {
  it.each([
    ['a FIFO', (root: string) => execFileSync('mkfifo', [join(root, 'ctxloop.config.json')]), /ctxloop\.config\.json: not read \(it is not a regular file\)/],
    ['a link leaving the root', (root: string) => symlinkSync('/etc/hostname', join(root, '.ctxloop.json')), /\.ctxloop\.json: not read \(it is a link leading outside the root\)/],
    // passed over as absent, and `.ctxloop.json` read in its place, in silence
    ['a link to itself', (root: string) => { symlinkSync('ctxloop.config.json', join(root, 'ctxloop.config.json')); writeFileSync(join(root, '.ctxloop.json'), '{"threshold": 0.99}'); }, /ctxloop\.config\.json: not read \(it is a link that leads nowhere, or loops\)/],
    ['a link that leads nowhere', (root: string) => symlinkSync('gone.json', join(root, '.ctxloop.json')), /\.ctxloop\.json: not read \(it is a link that leads nowhere, or loops\)/],
    ['a prompts folder outside the root', (root: string) => writeFileSync(join(root, '.ctxloop.json'), '{"promptsDir": "/etc"}'), /promptsDir must stay inside the repository/],
    ['a cache outside the root', (root: string) => writeFileSync(join(root, '.ctxloop.json'), '{"cache": "../../somewhere"}'), /cache must stay inside the repository/],
    [
      'a prompts folder reached through a link',
      (root: string) => {
        symlinkSync('/etc', join(root, 'prompts-link'));
        writeFileSync(join(root, '.ctxloop.json'), '{"promptsDir": "prompts-link"}');
      },
      /promptsDir must stay inside the repository/,
    ],
    [
      'a cache not made yet, below a link leaving the root',
      (root: string) => {
        mkdirSync(join(root, '.c'));
        symlinkSync(tmpdir(), join(root, '.c', 'sub'));
        writeFileSync(join(root, '.ctxloop.json'), '{"cache": ".c/sub/deeper/still"}');
      },
      /cache must stay inside the repository/,
    ],
    ['not JSON', (root: string) => writeFileSync(join(root, '.ctxloop.json'), '{"threshold": '), /\.ctxloop\.json: not valid JSON/],
    // describing the bad value recursed as deep as the value and blew the stack
    ['a value nested 5,000 deep', (root: string) => writeFileSync(join(root, '.ctxloop.json'), `{"budget": ${'['.repeat(5000)}${']'.repeat(5000)}}`), /^ctxloop: \.ctxloop\.json: budget: .*\(got an array\)$/m],
  ])('is refused with one line and exit 2 when it is %s', async (_label, plant, message) => {
    const hostile = makeRepo({ 'src/a.ts': 'export const verifyEmail = 1;\n' }, { git: false });
    try {
      plant(hostile.root);
      const r = await run(['retrieve', '--root', hostile.root, '--task', 'verifyEmail', '--no-cache']);
      expect(r.killed).toBe(false);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      hostile.cleanup();
    }
  });
});
