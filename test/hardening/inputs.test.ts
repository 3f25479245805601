/**
 * Hostile input, task side and file side: megabyte tasks, tasks empty after trimming, binary
 * tasks, regex metacharacters, every script; huge single-line files, oversized, non-UTF-8,
 * UTF-16, CRLF and unreadable files, empty repositories. Each gets a correct result or a clear
 * one-line error, within the test's time limit (a hang fails the test).
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { retrieve } from '../../src/orchestrator/loop.js';
import { useTempRepos } from '../helpers/make-repo.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');
const repo = useTempRepos();
const tempDir = useTempDirs();
const VERIFY = 'export function verifyEmail(address: string): boolean {\n  return address.includes("@");\n}\n';

const offline = (root: string) => ({ root, cache: false as const, provider: 'offline' as const, env: {} });
const paths = (result: { files: Array<{ path: string }> }) => result.files.map((f) => f.path);

function run(args: string[], options: { input?: string; uid?: number; gid?: number; timeout?: number } = {}): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      // a hard stop: a process blocked in a read SIGTERM cannot reach is killed, and fails the test by its code
      { timeout: options.timeout ?? 60_000, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' }, ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid! }) },
      (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        done({ code: typeof code === 'number' ? code : null, signal: child.signalCode, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** Deterministic pseudo-random bytes. */
function bytes(length: number, seed = 1): Buffer {
  let s = seed;
  return Buffer.from(Array.from({ length }, () => (s = (s * 1103515245 + 12345) & 0x7fffffff) & 0xff));
}

describe('a task or error file that is a FIFO', () => {
  // A plain open waits for a writer in a thread no signal reaches: the run hung, SIGTERM and a second Ctrl-C ignored.
  it('no one writes to: --task-file and locate --error end at once, exit 2, one line', async () => {
    const r = repo({ 'src/verify.ts': VERIFY });
    const fifo = join(tempDir(), 'task.fifo');
    execFileSync('mkfifo', [fifo]);
    const task = await run(['retrieve', '--root', r.root, '--task-file', fifo, '--no-cache'], { timeout: 20_000 });
    expect(task).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(task.stderr.split('\n')[0]).toBe(`ctxloop: the task is empty in ${fifo}`);
    const error = await run(['locate', '--root', r.root, '--error', fifo, '--no-cache'], { timeout: 20_000 });
    expect(error).toMatchObject({ code: 2, signal: null, stdout: '' });
    expect(error.stderr.split('\n')[0]).toBe(`ctxloop: the error text is empty in ${fifo}`);
  });

  it('being written to, slowly: read to its end', async () => {
    const r = repo({ 'src/verify.ts': VERIFY });
    const fifo = join(tempDir(), 'task.fifo');
    execFileSync('mkfifo', [fifo]);
    // the writer holds the FIFO open first, and writes after a pause, as a producer piping in does
    const writer = execFile('sh', ['-c', `exec 3>"${fifo}"; sleep 0.5; echo "verifyEmail is broken" >&3`]);
    const result = await run(['retrieve', '--root', r.root, '--task-file', fifo, '--format', 'paths', '--no-cache'], { timeout: 20_000 });
    writer.kill();
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.stdout.split('\n')[0]).toBe('src/verify.ts');
  });
});

describe('a working directory removed under the shell', () => {
  it('is said in one line with exit 1, and --version still answers', async () => {
    const gone = join(tempDir(), 'gone');
    const inGone = (args: string): { status: number | null; stdout: string; stderr: string } => {
      const r = spawnSync('/bin/sh', ['-c', `mkdir "$1" && cd "$1" && rmdir "$1" && exec "$2" "$3" ${args}`, 'sh', gone, process.execPath, BIN], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      return { status: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    const r = inGone('retrieve --task "verifyEmail" --root /');
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('ctxloop: the current directory no longer exists: cd to one that does and run again\n');
    const v = inGone('--version');
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('hostile tasks', () => {
  it('a 9 MB task, from a file and from stdin, runs to a result', async () => {
    const r = repo({ 'src/verify.ts': VERIFY, 'src/other.ts': 'export const other = 1;\n' });
    const words = ['verifyEmail', 'the', 'address', 'fails', 'with', 'Error', 'stack', 'at'];
    let task = '';
    for (let i = 0; task.length < 9_000_000; i++) task += `${words[i % words.length]}${i % 97} `;
    const file = join(tempDir(), 'task.txt');
    writeFileSync(file, `verifyEmail is broken\n${task}`);
    const fromFile = await run(['retrieve', '--root', r.root, '--task-file', file, '--format', 'paths', '--no-cache']);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout.split('\n')[0]).toBe('src/verify.ts');
    const fromStdin = await run(['retrieve', '--root', r.root, '--format', 'paths', '--no-cache'], { input: `verifyEmail is broken\n${task}` });
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout.split('\n')[0]).toBe('src/verify.ts');
    // the JSON echoes what was read of the task, not 9 MB of it
    const json = await run(['retrieve', '--root', r.root, '--task-file', file, '--json', '--no-cache']);
    const echoed = (JSON.parse(json.stdout) as { task: string }).task;
    expect(echoed.startsWith('verifyEmail is broken\n')).toBe(true);
    expect(echoed.length).toBeLessThan(61_000);
    expect(echoed).toMatch(/\[… [\d,]+ more characters, not read\]$/);
  });

  it.each([
    ['a megabyte-long word', `verifyEmail ${'a'.repeat(1_000_000)}`],
    ['a 400 kB path', `verifyEmail in src/${'x/'.repeat(200_000)}a.ts`],
    ['a base64 blob', `verifyEmail fails on ${bytes(300_000).toString('base64')}`],
    ['binary bytes and NULs', `verifyEmail ${bytes(50_000, 7).toString('latin1')}`],
    ['regex metacharacters', 'verifyEmail( [a-z]+ \\d{2,} (?<x>.*) $^ | ** ?? {{ }} [[ \\ // .* .+ (( ]]'],
    ['glob metacharacters', 'verifyEmail src/**/[!a-{b,c}*.ts !!! ** {a,b'],
    ['emoji, RTL marks and zero-width joiners', 'verifyEmail 🔥👩‍💻 \u202Ereversed\u202C \u200B\u200D مرحبا'],
  ])('a task with %s finds the file it names', async (_label, task) => {
    const r = repo({ 'src/verify.ts': VERIFY, 'src/other.ts': 'export const other = 1;\n' });
    const result = await retrieve(task, offline(r.root));
    expect(paths(result)).toContain('src/verify.ts');
  });

  it.each([['   '], ['\n\t\r\n'], ['\u00a0\u2003\u3000'], ['\ufeff']])('a task empty after trimming (%j) is a usage error', async (task) => {
    const r = repo({ 'src/verify.ts': VERIFY });
    await expect(retrieve(task, offline(r.root))).rejects.toMatchObject({ name: 'UsageError', code: 'no_task' });
  });

  it.runIf(existsSync(BIN))('an empty task on the command line or stdin gets one line and exit 2', async () => {
    const r = repo({ 'src/verify.ts': VERIFY });
    for (const [args, input] of [[['--task', ' \t '], ''], [[], '\n\n  \n']] as const) {
      const out = await run(['retrieve', '--root', r.root, '--no-cache', ...args], { input });
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(/^ctxloop: (the task is empty|no task given)/m);
      expect(out.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it.each([
    ['Cyrillic', 'src/почта.py', 'def проверить_почту(адрес):\n    return "@" in адрес\n', 'проверить_почту падает на пустом адресе'],
    ['Greek', 'src/έλεγχος.py', 'def έλεγχος_email(x):\n    return x\n', 'έλεγχος_email αποτυγχάνει'],
    ['Japanese', 'src/mail.ts', 'export function メール送信(宛先: string) {\n  return 宛先;\n}\n', 'メール送信 が失敗する'],
    ['Chinese', 'src/order.py', 'def 计算_总价(订单):\n    return sum(订单)\n', '计算_总价 返回错误的结果'],
  ])('a task in %s ranks first the file holding the identifier it names', async (_script, path, content, task) => {
    const r = repo({ [path]: content, 'src/other.py': 'def unrelated():\n    pass\n' });
    // threshold 0: a caseless script's one-word name reads as prose, so it may score under 0.7
    const result = await retrieve(task, { ...offline(r.root), threshold: 0 });
    expect(paths(result)).toEqual([path]);
  });
});

describe('hostile files', () => {
  it('a 900 kB single-line file, a file over the size limit, binary files: skipped or read, never a crash', async () => {
    const r = repo({
      'src/verify.ts': VERIFY,
      'dist/bundle.js': `var a=1;${'a=a+1;'.repeat(150_000)}function verifyEmail(x){return x}`,
      'data/huge.ts': `// verifyEmail\n${'x'.repeat(1_200_000)}\n`,
      'assets/blob.bin': bytes(200_000),
      'src/no-extension': Buffer.concat([Buffer.from('verifyEmail\n'), bytes(5000), Buffer.from([0])]),
    });
    const result = await retrieve('verifyEmail rejects valid addresses', { ...offline(r.root), threshold: 0 });
    expect(paths(result)[0]).toBe('src/verify.ts');
    const seen = [...result.files, ...result.candidates].map((f) => f.path);
    expect(seen).not.toContain('data/huge.ts');
    expect(seen).not.toContain('assets/blob.bin');
  });

  it('Latin-1, UTF-16 with a byte-order mark and CRLF files are read as text, with true line numbers', async () => {
    const r = repo({
      'src/latin.py': Buffer.from('# café\ndef verify_email(adresse):\n    return "@" in adresse\n', 'latin1'),
      'src/utf16.ts': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('// header\r\nexport function verifyEmail(a: string) {\r\n  return a;\r\n}\r\n', 'utf16le')]),
      'src/crlf.ts': 'import x from "y";\r\n\r\nexport function verifyEmailCrlf(a: string) {\r\n  return a;\r\n}\r\n',
    });
    const result = await retrieve('verifyEmail verify_email verifyEmailCrlf', { ...offline(r.root), threshold: 0, withContent: true });
    const byPath = new Map(result.files.map((f) => [f.path, f]));
    const utf16 = byPath.get('src/utf16.ts')!.regions.find((g) => g.symbol === 'verifyEmail');
    expect(utf16).toMatchObject({ start: 2, end: 4 });
    expect(utf16!.content).toBe('export function verifyEmail(a: string) {\n  return a;\n}');
    expect(byPath.get('src/crlf.ts')!.regions.find((g) => g.symbol === 'verifyEmailCrlf')).toMatchObject({ start: 3, end: 5 });
    expect(byPath.get('src/latin.py')!.regions.find((g) => g.symbol === 'verify_email')).toMatchObject({ start: 2, end: 3 });
    expect(JSON.stringify(result)).not.toContain('\\u0000');
  });

  it('a file whose lines end in a lone CR (classic Mac OS) is read as lines, its evidence on the lines that hold it', async () => {
    // rg counts lines by LF, so it puts every match of such a file on line 1: the region was the
    // whole file as one line, each CR shown as U+FFFD
    const pads = Array.from({ length: 30 }, (_, i) => `function pad${i}(s) { return s; }`);
    const mac = ['// utilities', ...pads, '', '// the postal code check below rejects Canadian codes', 'function checkPostal(code) {', '  return /^\\d{5}$/.test(code);', '}', ...pads.map((l) => l.replace('pad', 'trim'))].join('\r') + '\r';
    // in a file with LFs, a lone CR (here in a string) does not start a line: rg's count is kept
    const mixed = 'const sep = "a\rb";\nexport function verifyMixed() {\n  return sep;\n}\n';
    const r = repo({ 'src/mac.js': mac, 'src/mixed.ts': mixed });
    const result = await retrieve('the postal code check rejects Canadian codes; verifyMixed', { ...offline(r.root), threshold: 0, withContent: true });
    const byPath = new Map(result.files.map((f) => [f.path, f]));
    const regions = byPath.get('src/mac.js')!.regions;
    const postal = regions.find((g) => g.start <= 34 && g.end >= 35);
    expect(postal).toBeDefined();
    expect(postal!.content).toContain('// the postal code check below rejects Canadian codes\nfunction checkPostal(code) {\n');
    expect(regions.every((g) => g.end - g.start < 20)).toBe(true);
    expect(JSON.stringify(result)).not.toMatch(/\\r|\uFFFD/);
    expect(byPath.get('src/mixed.ts')!.regions.find((g) => g.symbol === 'verifyMixed')).toMatchObject({ start: 2, end: 4 });
  });

  it('a repository with no file at all, or only files that are skipped, gives an empty result', async () => {
    for (const files of [{}, { '.env': 'TOKEN=x\n', 'logo.png': bytes(100), 'package-lock.json': '{}' }]) {
      const r = repo(files);
      const result = await retrieve('verifyEmail rejects valid addresses', offline(r.root));
      expect(result.files).toEqual([]);
      expect(result.candidates).toEqual([]);
    }
  });

  const nobody = process.getuid?.() === 0 ? uidOf('nobody') : undefined;
  it.runIf(existsSync(BIN) && (process.getuid?.() !== 0 || nobody !== undefined))('an unreadable file and directory are passed over, the rest is found, exit 0', async () => {
    const r = repo({ 'src/verify.ts': VERIFY, 'src/locked.ts': 'export function verifyEmailLocked() {}\n', 'secret-dir/x.ts': 'export const verifyEmail = 2;\n' });
    chmodSync(r.root, 0o755);
    chmodSync(join(r.root, 'src/locked.ts'), 0o000);
    chmodSync(join(r.root, 'secret-dir'), 0o000);
    // root reads everything: run as `nobody` so the permissions bite
    const out = await run(['retrieve', '--root', r.root, '--task', 'verifyEmail verifyEmailLocked', '--json', '--no-cache'], nobody ?? {});
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).files.map((f: { path: string }) => f.path)).toContain('src/verify.ts');
    expect(out.stderr).not.toMatch(/\n\s+at /);
  });

  it.runIf(existsSync(BIN) && (process.getuid?.() !== 0 || nobody !== undefined))('a root that cannot be read is a usage error saying so, not a failure of ripgrep', async () => {
    const r = repo({ 'src/verify.ts': VERIFY });
    chmodSync(r.root, 0o700);
    const out = await run(['retrieve', '--root', r.root, '--task', 'verifyEmail', '--no-cache'], nobody ?? {});
    chmodSync(r.root, 0o755);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/^ctxloop: root cannot be read: .* \(permission denied\)$/m);
    expect(out.stderr).not.toMatch(/ripgrep|\n\s+at /);
  });

  it.runIf(existsSync(BIN) && process.platform === 'linux' && existsSync('/proc/self'))('a root on a kernel pseudo-filesystem (/proc: the search waited 60 s on /proc/kmsg) is refused at once', async () => {
    for (const [root, kind] of [['/proc', 'proc'], ['/sys/kernel', 'sysfs']] as const) {
      if (!existsSync(root)) continue;
      const out = await run(['retrieve', '--root', root, '--task', 'x', '--no-cache', '--format', 'paths']);
      expect(out.code).toBe(2);
      expect(out.stderr).toBe(`ctxloop: root is not a repository: ${root} is on the ${kind} pseudo-filesystem\n  hint: pass a directory of source files with --root\n`);
    }
  });

  it.runIf(existsSync(BIN))('the whole file system as the root (--root /, or a run started in /) is refused at once (a V8 crash after 72 s)', async () => {
    const out = await run(['retrieve', '--root', '/', '--task', 'x', '--no-cache', '--format', 'paths']);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe("ctxloop: root is not a repository: / is the whole file system\n  hint: pass a repository's directory with --root\n");
  });
});

function uidOf(user: string): { uid: number; gid: number } | undefined {
  try {
    return { uid: Number(execFileSync('id', ['-u', user]).toString().trim()), gid: Number(execFileSync('id', ['-g', user]).toString().trim()) };
  } catch {
    return undefined;
  }
}
