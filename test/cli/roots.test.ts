/** `--root` repeated and labelled: parsing, and the built binary over two temp repositories. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRetrieveArgs, parseRootFlag } from '../../src/cli/args.js';
import { useTempRepos } from '../helpers/make-repo.js';

const BIN = resolve(__dirname, '../../dist/cli/bin.js');
const makeRepo = useTempRepos();

/** A link to `dir` under the same name, elsewhere: a root there takes the same label. */
function linkTo(dir: string): string {
  const link = join(mkdtempSync(join(tmpdir(), 'ctxloop-link-')), basename(dir));
  symlinkSync(dir, link);
  return link;
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) => {
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('--root flag', () => {
  it('reads LABEL=DIR, a plain DIR, and a path whose = comes after a slash', () => {
    expect(parseRootFlag('api=../api', '/work/web')).toEqual({ label: 'api', path: '/work/api' });
    expect(parseRootFlag('../api', '/work/web')).toEqual({ path: '/work/api' });
    expect(parseRootFlag('./a=b', '/work')).toEqual({ path: '/work/a=b' });
  });

  it('keeps one plain root a plain run, and makes a repeated or labelled one a run over roots', () => {
    expect(parseRetrieveArgs(['--root', 'x'], '/w')).toMatchObject({ root: '/w/x' });
    expect(parseRetrieveArgs(['--root', 'x'], '/w').roots).toBeUndefined();
    expect(parseRetrieveArgs(['--root', 'api=x'], '/w').roots).toEqual([{ label: 'api', path: '/w/x' }]);
    expect(parseRetrieveArgs(['--root', 'x', '--root', 'web=y'], '/w')).toMatchObject({ root: '/w/x', roots: [{ path: '/w/x' }, { label: 'web', path: '/w/y' }] });
  });

  it('takes a path as written, a space at its end included (trimmed, `--cache "c "` wrote to `c`), and refuses one of spaces alone', () => {
    expect(parseRootFlag('repo ', '/w')).toEqual({ path: '/w/repo ' });
    expect(parseRootFlag('api = ../api ', '/w/web')).toEqual({ label: 'api', path: '/w/api ' });
    expect(parseRetrieveArgs(['--root', 'x', '--cache', 'c ', '--task-file', 't.md '], '/w')).toMatchObject({ root: '/w/x', settings: { cache: '/w/c ' } });
    expect(parseRetrieveArgs(['--task-file', 't.md '], '/w').task).toEqual({ kind: 'file', path: '/w/t.md ' });
    expect(() => parseRetrieveArgs(['--cache', '  '], '/w')).toThrow(/--cache must not be empty/);
    expect(() => parseRootFlag('api= ', '/w')).toThrow(/no directory after "="/);
  });

  it.each([['my api=../api', /bad label "my api"/], ['api=', /no directory after "="/], ['a:b=.', /bad label "a:b"/]])('refuses %s', (value, message) => {
    expect(() => parseRootFlag(value, '/w')).toThrow(message);
  });
});

describe.runIf(existsSync(BIN))('ctxloop retrieve over several roots', () => {
  const twoRepos = () => ({
    api: makeRepo({ 'src/server/login.ts': "export function handleLogin(req: Request) {\n  if (!req.password) throw new Error('password required');\n}\n", 'src/health.ts': 'export const up = true;\n' }),
    web: makeRepo({ 'src/pages/login.ts': "export async function submitLogin(form: object) {\n  return fetch('/api/login', { method: 'POST' });\n}\n" }),
  });
  const TASK = 'submitLogin gets a 500 from handleLogin';

  it('prints labelled paths and the roots in the JSON contract', async () => {
    const { api, web } = twoRepos();
    const r = await run(['retrieve', '--root', `api=${api.root}`, '--root', `web=${web.root}`, '--task', TASK, '--json', '--no-cache']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.files.map((f: { path: string }) => f.path).sort()).toEqual(['api:src/server/login.ts', 'web:src/pages/login.ts']);
    expect(result.root).toBe(realpathSync(api.root));
    expect(result.roots).toEqual([{ label: 'api', path: realpathSync(api.root) }, { label: 'web', path: realpathSync(web.root) }]);
  });

  it('prints labelled paths one a line', async () => {
    const { api, web } = twoRepos();
    const r = await run(['retrieve', '--root', `api=${api.root}`, '--root', `web=${web.root}`, '--task', TASK, '--format', 'paths', '--no-cache', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').sort()).toEqual(['api:src/server/login.ts', 'web:src/pages/login.ts']);
  });

  it.each([
    ['a duplicate label', (a: string, w: string) => ['--root', `x=${a}`, '--root', `x=${w}`], /two roots have the label "x"/],
    ['a bad label', (a: string) => ['--root', `my api=${a}`], /bad label "my api"/],
    ['a missing directory', (a: string) => ['--root', `api=${a}`, '--root', `web=${join(a, 'nope')}`], /root not found/],
    // one directory twice, unlabelled: its name twice, and the hint to relabel led only to the next error
    ['one directory twice without labels', (a: string) => ['--root', a, '--root', `${a}/`], /^ctxloop: root \S+ is given twice: give it once$/m],
    ['a directory and a link to it, without labels', (a: string) => ['--root', a, '--root', linkTo(a)], /^ctxloop: \S+ and \S+ are the same directory: give it once$/m],
  ])('refuses %s with one line and exit 2', async (_name, roots, message) => {
    const { api, web } = twoRepos();
    const r = await run(['retrieve', ...roots(api.root, web.root), '--task', TASK, '--no-cache']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('hint') && !l.startsWith('  '))).toHaveLength(1);
  });
});
