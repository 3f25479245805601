import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchRequest } from '../../src/core/deps.js';
import { silentLogger } from '../../src/core/log.js';
import { stem } from '../../src/core/text.js';
import type { Candidate, Query } from '../../src/core/types.js';
import { createSearcher } from '../../src/retrieve/dispatch.js';
import { createCache } from '../../src/cache/store.js';
import { resolveRgPath } from '../../src/retrieve/rg-path.js';
import { runRg } from '../../src/retrieve/rg-process.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();

function query(partial: Partial<Query>): Query {
  return { keywords: [], weights: {}, literals: [], symbols: [], paths: [], patterns: [], excludes: [], focusAreas: [], ...partial };
}

function request(root: string, q: Partial<Query>, extra: Partial<SearchRequest> = {}): SearchRequest {
  return { root, scope: [], include: [], exclude: [], maxFileSize: 1_000_000, concurrency: 4, maxCandidates: 150, query: query(q), ...extra };
}

function byPath(candidates: Candidate[]): Record<string, Candidate> {
  return Object.fromEntries(candidates.map((c) => [c.path, c]));
}

function paths(candidates: Candidate[]): string[] {
  return candidates.map((c) => c.path).sort();
}

describe('search', () => {
  it("counts a later cycle's borrowed names only near the strongest files, and keeps those counts for the run alone", async () => {
    const r = repo({ 'lib/helpers/url.ts': 'export function buildQuery() {\n  return encodeParam(1);\n}\n', 'lib/core/call.ts': 'buildQuery();\nencodeParam(2);\n', 'docs/guide.ts': 'encodeParam(3);\n' });
    // written long ago: the kept index trusts files that did not change since it was saved
    const past = new Date(Date.now() - 3_600_000);
    for (const file of ['lib/helpers/url.ts', 'lib/core/call.ts', 'docs/guide.ts']) utimesSync(join(r.root, file), past, past);
    const dir = mkdtempSync(join(tmpdir(), 'ctxloop-near-'));
    try {
      const cache = await createCache({ dir, root: r.root });
      const near = await createSearcher({ cache }).search(request(r.root, { keywords: ['encodeparam'] }, { near: { keywords: ['encodeparam'], paths: ['lib'] } }));
      // docs/guide.ts holds the name too, outside lib/
      expect(paths(near.candidates)).toEqual(['lib/core/call.ts', 'lib/helpers/url.ts']);
      await cache.flush();
      // the next run counts it everywhere: the counts of part of the scope were not kept
      const later = await createSearcher({ cache: await createCache({ dir, root: r.root }) }).search(request(r.root, { keywords: ['encodeparam'] }));
      expect(paths(later.candidates)).toEqual(['docs/guide.ts', 'lib/core/call.ts', 'lib/helpers/url.ts']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(process.platform === 'linux')('stops an rg stuck opening a .gitignore below the root that is a FIFO (it waited for its timeout) and searches again without such files, the listing applying the regular ones', async () => {
    const r = repo({ '.gitignore': 'build/\n', 'sub/mail.ts': 'export function verifyEmail() {}\n', 'build/mail.ts': 'export function verifyEmail() {}\n', 'sub/other.ts': 'export const other = 1;\n' });
    execFileSync('mkfifo', [join(r.root, 'sub', '.gitignore')]);
    const warnings: string[] = [];
    // a timeout the test outlives: without the watch, rg waits for it and the content evidence is lost
    const searcher = createSearcher({ logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) }, timeout: 20_000 });
    const { candidates } = await searcher.search(request(r.root, { keywords: ['verify'] }));
    expect(paths(candidates)).toEqual(['sub/mail.ts']);
    expect(byPath(candidates)['sub/mail.ts']!.termFreq).toEqual({ verify: 1 });
    // the listing and the scan meet it at once, in either order
    expect(warnings).toHaveLength(2);
    expect(warnings).toEqual(
      expect.arrayContaining([
        `ripgrep could not list the files (ripgrep was stuck on a named pipe or a device in ${r.root} (a .gitignore that is one?) and was stopped); listing them with fast-glob instead`,
        `ripgrep was stuck on a named pipe or a device in ${r.root} (a .gitignore that is one?) and was stopped; the content is searched without .gitignore files, and the listing applies them`,
      ]),
    );
    // the next search of that root starts without what stopped it: no second wait
    const again = await searcher.search(request(r.root, { keywords: ['other'] }));
    expect(paths(again.candidates)).toEqual(['sub/other.ts']);
  });

  it.runIf(process.platform === 'linux' && existsSync('/dev/ptmx'))('stops an rg reading a .gitignore below the root that is a link to a device that blocks (/dev/ptmx: it waited for its timeout)', async () => {
    const r = repo({ 'src/a.ts': 'export function devTarget() { return 1 }\n', 'src/sub/b.ts': 'export const other = 1;\n' });
    symlinkSync('/dev/ptmx', join(r.root, 'src', 'sub', '.gitignore'));
    const warnings: string[] = [];
    const searcher = createSearcher({ logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) }, timeout: 20_000 });
    const { candidates } = await searcher.search(request(r.root, { keywords: ['devtarget'] }));
    expect(paths(candidates)).toEqual(['src/a.ts']);
    expect(byPath(candidates)['src/a.ts']!.termFreq).toEqual({ devtarget: 1 });
    expect(warnings.some((w) => w.startsWith(`ripgrep was stuck on a named pipe or a device in ${r.root}`))).toBe(true);
  });

  it("applies no root .gitignore that is a link to a file outside the root (another tree's rules hid files; git does not follow it)", async () => {
    const outside = mkdtempSync(join(tmpdir(), 'ctxloop-outside-'));
    try {
      writeFileSync(join(outside, 'rules'), 'keep*\n');
      const r = repo({ 'keepme.ts': 'export function glTarget() {}\n', 'other.ts': 'export function glTarget2() {}\n' });
      rmSync(join(r.root, '.gitignore'), { force: true });
      symlinkSync(join(outside, 'rules'), join(r.root, '.gitignore'));
      const searcher = createSearcher({ logger: silentLogger });
      const { candidates } = await searcher.search(request(r.root, { keywords: ['gltarget', 'gltarget2'] }));
      expect(paths(candidates)).toEqual(['keepme.ts', 'other.ts']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('starts no content scan after rg once ran out of time: each cycle would wait as long again', async () => {
    const r = repo({ 'src/a.ts': 'const token = 1;\n' });
    const log = join(r.root, 'calls.log');
    const fake = join(r.root, 'fake-rg.sh');
    writeFileSync(fake, `#!/bin/sh\necho "$@" >> '${log}'\nexec sleep 30\n`);
    chmodSync(fake, 0o755);
    const searcher = createSearcher({ logger: silentLogger, env: { CTXLOOP_RG: fake }, timeout: 300 });
    const first = await searcher.search(request(r.root, { keywords: ['token'] }), undefined);
    const second = await searcher.search(request(r.root, { keywords: ['other'], paths: ['src/a.ts'] }), undefined);
    // the listing fell back to fast-glob, and names and paths still find the file
    expect(paths(first.candidates)).toEqual([]);
    expect(paths(second.candidates)).toEqual(['src/a.ts']);
    const scans = readFileSync(log, 'utf8').trim().split('\n').filter((line) => !line.includes('--files'));
    expect(scans).toHaveLength(1);
  });

  it('refuses an include or exclude glob rg cannot read, as a usage error naming it', async () => {
    const r = repo({ 'src/a.ts': 'const token = 1;\n' });
    const cases: Array<[string[], string[]]> = [[['['], []], [[], ['{{a']], [['[z-a]'], []]];
    // also when no content scan runs (a task without terms): it used to be accepted then
    for (const [[include, exclude], keywords] of cases.flatMap((c) => [[c, ['token']], [c, []]] as const)) {
      const found = await createSearcher({ logger: silentLogger }).search(request(r.root, { keywords: [...keywords] }, { include, exclude }), undefined).catch((e: unknown) => e);
      expect(found).toMatchObject({ code: 'bad_option', message: expect.stringMatching(/^an include or exclude glob is not valid: error parsing glob '!?(\[|\{\{a|\[z-a\])'/) });
    }
    // a glob it can read is applied
    expect(paths((await createSearcher({ logger: silentLogger }).search(request(r.root, { keywords: ['token'] }, { include: ['src/*.ts'] }))).candidates)).toEqual(['src/a.ts']);
  });

  it('applies thousands of excludes (more than rg can build into one automaton) without losing the content scan', async () => {
    const r = repo({ 'src/a.ts': 'const token = 1;\n', 'gen/b.ts': 'const token = 2;\n' });
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (m: string) => void warnings.push(m) };
    // 10,000 globs like these make rg fail with "error building NFA"
    const exclude = [...Array.from({ length: 10_000 }, (_, i) => `**/dir${i}/**/*.{ts,js,py}`), 'gen/**'];
    const found = await createSearcher({ logger }).search(request(r.root, { keywords: ['token'] }, { exclude }), undefined);
    expect(paths(found.candidates)).toEqual(['src/a.ts']);
    expect(byPath(found.candidates)['src/a.ts']!.sources).toContain('content');
    expect(warnings).toEqual([]);
  });

  it('says a skipped file once though the listing and the scan both meet it, its path cut to its end when long', async () => {
    const r = repo({ 'src/a.ts': 'const token = 1;\n' });
    const real = await resolveRgPath(process.env, silentLogger);
    const fake = join(r.root, 'rg.sh');
    const long = `${'deep/'.repeat(200)}locked`;
    writeFileSync(fake, `#!/bin/sh\n'${real}' "$@"\necho "rg: ./${long}: Permission denied (os error 13)" >&2\nexit 2\n`);
    chmodSync(fake, 0o755);
    const warnings: string[] = [];
    const searcher = createSearcher({ logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) }, env: { CTXLOOP_RG: fake } });
    const found = await searcher.search(request(r.root, { keywords: ['token'] }), undefined);
    expect(paths(found.candidates)).toEqual(['src/a.ts']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^ripgrep skipped some files in .*: …[^ ]*deep\/locked: Permission denied \(os error 13\)$/);
    expect(warnings[0]!.length).toBeLessThan(500);
  });

  it('keeps a file the task names by path ahead of the cut, though more files than kept use its symbol', async () => {
    const files: Record<string, string> = { 'src/hub.ts': 'export function hubFunction() {\n  return 1;\n}\n' };
    for (let i = 0; i < 160; i++) files[`src/users/u${i}.ts`] = `import { hubFunction } from '../hub';\nexport const v${i} = hubFunction() + hubFunction();\n`;
    const r = repo(files);
    const found = await createSearcher({ logger: silentLogger }).search(request(r.root, { keywords: ['hubfunction', 'hub', 'function'], symbols: ['hubFunction'], paths: ['src/hub.ts'] }, { maxCandidates: 150 }), undefined);
    expect(found.candidates).toHaveLength(150);
    expect(found.candidates[0]!.path).toBe('src/hub.ts');
  });

  it('honors .gitignore and nested .gitignore, and skips vendored, binary and secret files', async () => {
    const r = repo({
      '.gitignore': 'dist/\n',
      'pkg/.gitignore': 'gen/\n',
      'src/token.ts': 'const token = 1;\n',
      'dist/token.js': 'token\n',
      'pkg/gen/token.ts': 'token\n',
      'pkg/token_store.ts': 'token\n',
      'node_modules/x/token.js': 'token\n',
      'vendor/y/token.go': 'token\n',
      'blob.dat': Buffer.from('token\0\x01\x02'),
      'data': Buffer.from('\0token\n'),
      '.env': 'TOKEN=secret\n',
      'static/app.min.js': 'token\n',
    });
    const searcher = createSearcher();
    const { candidates } = await searcher.search(request(r.root, { keywords: ['token'] }));
    expect(paths(candidates)).toEqual(['pkg/token_store.ts', 'src/token.ts']);
    const listed = await searcher.listFiles(request(r.root, {}));
    expect(listed).toEqual(['.gitignore', 'blob.dat', 'data', 'pkg/.gitignore', 'pkg/token_store.ts', 'src/token.ts']);
  });

  it('searches exactly the files it lists: oversized, deep, non-UTF-8 and CRLF files included or not alike', async () => {
    const deep = Array.from({ length: 20 }, (_, i) => `d${i}`).join('/');
    const r = repo({
      [`${deep}/leaf.ts`]: 'token\n',
      'big.ts': `token\n${'x'.repeat(3000)}\n`,
      'latin.txt': Buffer.from('caf\xe9 token\n', 'latin1'),
      'crlf.ts': 'a\r\ntoken here  \r\n',
      'id_rsa': 'token\n',
      'Cargo.lock': 'token\n',
      'cert.pem': 'token\n',
    });
    const outside = repo({ 'token.ts': 'token\n' });
    symlinkSync(outside.root, join(r.root, 'linked'));
    symlinkSync(join(outside.root, 'token.ts'), join(r.root, 'linked-token.ts'));
    const searcher = createSearcher();
    const { candidates, stats } = await searcher.search(request(r.root, { keywords: ['token'] }, { maxFileSize: 2048 }));
    const listed = await searcher.listFiles(request(r.root, {}, { maxFileSize: 2048 }));
    expect(paths(candidates)).toEqual(listed);
    expect(listed).toEqual(['crlf.ts', `${deep}/leaf.ts`, 'latin.txt']);
    const found = byPath(candidates);
    expect(found['crlf.ts']?.hits).toEqual([{ line: 2, text: 'token here', terms: ['token'] }]);
    expect(found['latin.txt']?.hits[0]?.text).toBe('caf\uFFFD token');
    // oversized files are left out by rg's --max-filesize, unseen and so uncounted
    expect(stats.skipped).toEqual({ secret: 2, lock: 1 });
  });

  it('counts whole terms only: `cat` not inside `concatenate`, `verify` inside `verifyEmail` and `verify_email`', async () => {
    const r = repo({
      'concat.ts': 'concatenate(a, b);\nconst catalog = [];\n',
      'cat.ts': 'const cat = new Cat();\n',
      'verify.py': 'def verify_email(x):\n    return verifyEmail(x) and verify(x)\n',
    });
    const { candidates, stats } = await createSearcher().search(request(r.root, { keywords: ['cat', 'verify'] }));
    const found = byPath(candidates);
    expect(Object.keys(found).sort()).toEqual(['cat.ts', 'verify.py']);
    expect(found['cat.ts']?.termFreq).toEqual({ cat: 2 });
    expect(found['verify.py']?.termFreq).toEqual({ verify: 3 });
    expect(found['verify.py']?.hits).toEqual([
      { line: 1, text: 'def verify_email(x):', terms: ['verify'] },
      { line: 2, text: '    return verifyEmail(x) and verify(x)', terms: ['verify'] },
    ]);
    expect(stats.docFreq).toEqual({ cat: 1, verify: 1 });
  });

  it('matches literals verbatim, case-insensitively, metacharacters included', async () => {
    const r = repo({ 'a.ts': 'throw new Error("Foo(bar[ broke");\n', 'b.ts': 'foobar\n', 'c.ts': 'x = A.*B\n', 'd.ts': 'aXXb\n' });
    const { candidates } = await createSearcher().search(request(r.root, { literals: ['foo(bar[', 'a.*b'] }));
    const found = byPath(candidates);
    expect(Object.keys(found).sort()).toEqual(['a.ts', 'c.ts']);
    expect(found['a.ts']?.literals).toEqual(['foo(bar[']);
    expect(found['a.ts']?.sources).toEqual(['content']);
    expect(found['c.ts']?.hits[0]?.terms).toEqual(['a.*b']);
  });

  it('finds symbols as whole, case-sensitive identifiers', async () => {
    const r = repo({
      'src/mail.ts': 'export async function sendVerificationEmail(user) {}\n',
      'src/later.ts': 'sendVerificationEmailLater();\n',
      'src/shout.ts': 'SENDVERIFICATIONEMAIL\n',
    });
    const { candidates } = await createSearcher().search(request(r.root, { symbols: ['sendVerificationEmail'] }));
    expect(candidates.map((c) => [c.path, c.symbols, c.sources])).toEqual([['src/mail.ts', ['sendVerificationEmail'], ['symbol']]]);
  });

  it('resolves path mentions to the files with the longest matching suffix', async () => {
    const r = repo({ 'src/auth/verify.ts': 'a\n', 'lib/verify.ts': 'b\n', 'verify.ts': 'c\n', 'src/auth/index.ts': 'd\n', 'src/other.ts': 'e\n' });
    const { candidates } = await createSearcher().search(request(r.root, { paths: ['auth/verify.ts', 'verify.ts', 'src/auth', 'missing.py'] }));
    const found = byPath(candidates);
    expect(Object.keys(found).sort()).toEqual(['lib/verify.ts', 'src/auth/index.ts', 'src/auth/verify.ts', 'verify.ts']);
    expect(found['src/auth/verify.ts']?.mentions).toEqual(['auth/verify.ts', 'verify.ts']);
    expect(found['lib/verify.ts']?.mentions).toEqual(['verify.ts']);
    expect(found['src/auth/index.ts']?.mentions).toEqual(['src/auth']);
    expect(found['verify.ts']?.sources).toEqual(['mention']);
  });

  it('finds files by keywords in their path and by query globs', async () => {
    const r = repo({ 'src/billing/invoice.ts': 'export const x = 1;\n', 'deploy/app.yml': 'x: 1\n', 'src/other.ts': 'y\n' });
    const { candidates } = await createSearcher().search(request(r.root, { keywords: [stem('invoice')], patterns: ['*.YML'] }));
    expect(candidates.map((c) => [c.path, c.sources, c.hits.length])).toEqual([
      ['deploy/app.yml', ['path'], 0],
      ['src/billing/invoice.ts', ['path'], 0],
    ]);
  });

  it('returns no candidates, without throwing, when nothing matches', async () => {
    const r = repo({ 'a.ts': 'alpha\n', 'b.ts': 'beta!!\n' });
    const result = await createSearcher().search(request(r.root, { keywords: ['zeta'], literals: ['nowhere'] }));
    expect(result).toEqual({ candidates: [], stats: { totalFiles: 2, avgSize: 6.5, docFreq: { zeta: 0 }, skipped: {} } });
  });

  it('applies exclude, include and scope to content hits, and query excludes to candidates', async () => {
    const r = repo({ 'src/a.ts': 'pivot\n', 'src/b.js': 'pivot\n', 'src/legacy/c.ts': 'pivot\n', 'lib/d.ts': 'pivot\n' });
    const searcher = createSearcher();
    const run = async (extra: Partial<SearchRequest>, excludes: string[] = []): Promise<string[]> =>
      paths((await searcher.search(request(r.root, { keywords: ['pivot'], excludes }, extra))).candidates);
    expect(await run({ exclude: ['legacy'] })).toEqual(['lib/d.ts', 'src/a.ts', 'src/b.js']);
    expect(await run({ include: ['*.ts'] })).toEqual(['lib/d.ts', 'src/a.ts', 'src/legacy/c.ts']);
    expect(await run({ scope: ['src/legacy', 'lib/d.ts'] })).toEqual(['lib/d.ts', 'src/legacy/c.ts']);
    expect(await run({}, ['src/legacy', 'lib/d.ts'])).toEqual(['src/a.ts', 'src/b.js']);
    expect(await run({ include: ['src/**/*.ts'] })).toEqual(['src/a.ts', 'src/legacy/c.ts']);
    expect(await run({}, ['src/legacy/**', 'lib/*'])).toEqual(['src/a.ts', 'src/b.js']);
    // a directory an include names takes in its files: rg, given `src` alone, matched no file and found no content
    expect(await run({ include: ['src'] })).toEqual(['src/a.ts', 'src/b.js', 'src/legacy/c.ts']);
    expect(await run({ include: ['legacy/'] })).toEqual(['src/legacy/c.ts']);
    expect(await run({ include: ['/src/legacy'] })).toEqual(['src/legacy/c.ts']);
  });

  it('reads a glob ending in a slash as directories only, in the listing and in the content scan', async () => {
    const r = repo({ 'verify.ts/in.ts': 'pivot\n', 'lib/verify.ts': 'pivot\n', 'top.ts': 'pivot\n' });
    const searcher = createSearcher();
    const run = async (extra: Partial<SearchRequest>): Promise<string[]> => paths((await searcher.search(request(r.root, { keywords: ['pivot'] }, extra))).candidates);
    // the slash was dropped: `verify.ts/` left out the file lib/verify.ts, and `**/` every file
    expect(await run({ exclude: ['verify.ts/'] })).toEqual(['lib/verify.ts', 'top.ts']);
    expect(await run({ exclude: ['**/'] })).toEqual(['top.ts']);
    expect(await run({ exclude: ['verify.ts'] })).toEqual(['top.ts']);
    expect(await run({ include: ['verify.ts/'] })).toEqual(['verify.ts/in.ts']);
    expect(await searcher.listFiles({ root: r.root, scope: [], include: [], exclude: ['./verify.ts//'], maxFileSize: 1_000_000, concurrency: 4 })).toEqual(['lib/verify.ts', 'top.ts']);
  });

  it('finds files by path globs with slashes as well as by names', async () => {
    const r = repo({ 'src/lib/smtp.ts': 'x\n', 'src/mail/send.ts': 'y\n', 'docs/a.md': 'z\n' });
    const found = async (patterns: string[]) => paths((await createSearcher().search(request(r.root, { patterns }))).candidates);
    expect(await found(['src/lib/**'])).toEqual(['src/lib/smtp.ts']);
    expect(await found(['**/mail*/**'])).toEqual(['src/mail/send.ts']);
    expect(await found(['*.md'])).toEqual(['docs/a.md']);
  });

  it('applies the root .gitignore inside a scope, though rg starts below it', async () => {
    const r = repo({ '.gitignore': 'gen/\n', 'src/gen/a.ts': 'pivot\n', 'src/b.ts': 'pivot\n' });
    const { candidates } = await createSearcher().search(request(r.root, { keywords: ['pivot'] }, { scope: ['src'] }));
    expect(paths(candidates)).toEqual(['src/b.ts']);
  });

  it('keeps files with literals, symbols or mentions first, then the heavier keyword evidence, ties by path', async () => {
    const r = repo({
      'a.ts': 'zebra\n',
      'b.ts': 'common zebra zebra\n',
      'c.ts': 'common\n',
      'd.ts': 'common\n',
      'e.ts': 'common\nconst ERR = "exact phrase";\n',
      'f.ts': 'unrelated\n',
    });
    const q = { keywords: ['common', 'zebra'], weights: { common: 1, zebra: 1 }, literals: ['exact phrase'] };
    const { candidates } = await createSearcher().search(request(r.root, q, { maxCandidates: 4 }));
    expect(candidates.map((c) => c.path)).toEqual(['e.ts', 'b.ts', 'a.ts', 'c.ts']);
  });

  it('keeps no file ahead for a symbol or literal held by more than a third of the cut: a common name would fill it', async () => {
    const r = repo({
      'docs/a.md': 'tRPC is great\n',
      'docs/b.md': 'tRPC is great\n',
      'docs/c.md': 'tRPC is great\n',
      'docs/d.md': 'tRPC is great\n',
      'src/ws.ts': 'reconnect(lazy);\nreconnect();\n',
      'src/err.ts': 'throw new Error("socket hang up");\n',
    });
    const q = { keywords: ['reconnect', 'lazy'], weights: { reconnect: 1, lazy: 1 }, symbols: ['tRPC'], literals: ['socket hang up'] };
    // a cut of 3: `tRPC`, in four files, is held by more than a third of it; the rare literal stays ahead, then the words decide
    const { candidates } = await createSearcher().search(request(r.root, q, { maxCandidates: 3 }));
    expect(candidates.map((c) => c.path)).toEqual(['src/err.ts', 'src/ws.ts', 'docs/a.md']);
    // a cut where four files are few: the symbol keeps them ahead
    const wide = await createSearcher().search(request(r.root, q, { maxCandidates: 12 }));
    expect(wide.candidates.map((c) => c.path).slice(0, 5)).toEqual(['docs/a.md', 'docs/b.md', 'docs/c.md', 'docs/d.md', 'src/err.ts'].sort());
  });

  it('keeps at most 30 hits a file, the lines with the most terms, in line order', async () => {
    const lines = Array.from({ length: 60 }, (_, i) => (i === 45 ? 'alpha beta' : 'alpha'));
    const r = repo({ 'a.ts': `${lines.join('\n')}\n` });
    const [found] = (await createSearcher().search(request(r.root, { keywords: ['alpha', 'beta'] }))).candidates;
    expect(found?.hits.length).toBe(30);
    expect(found?.hits.map((h) => h.line)).toEqual([...Array.from({ length: 29 }, (_, i) => i + 1), 46]);
    expect(found?.termFreq).toEqual({ alpha: 50, beta: 1 });
  });

  it('searches hundreds of patterns at once without losing matches', async () => {
    const literals = Array.from({ length: 250 }, (_, i) => `marker-${String(i).padStart(3, '0')}-x`);
    const r = repo({ 'first.txt': `${literals[0]}\n`, 'last.txt': `${literals[249]}\n` });
    const { candidates } = await createSearcher().search(request(r.root, { literals }));
    expect(candidates.map((c) => [c.path, c.literals])).toEqual([
      ['first.txt', [literals[0]]],
      ['last.txt', [literals[249]]],
    ]);
  });

  it('gives a later query the same candidates whether its terms were scanned earlier, now, or all at once', async () => {
    const r = repo({
      'src/a.py': 'def from_json(data):\n    return parse(data)\n',
      'src/b.py': 'from a import from_json\nvalue = from_json(raw)\n',
      'src/c.py': "def parse(text):\n    '''Parse raw text.'''\n    return text\n",
      'README.md': 'Parse JSON with from_json.\n',
    });
    const second = query({ keywords: ['pars', 'fromjson', 'raw'], literals: ['Parse raw'], symbols: ['from_json'] });
    const incremental = createSearcher();
    await incremental.search(request(r.root, { keywords: ['pars'] }));
    const later = await incremental.search({ ...request(r.root, {}), query: second });
    const atOnce = await createSearcher().search({ ...request(r.root, {}), query: second });
    expect(later).toEqual(atOnce);
    expect(byPath(atOnce.candidates)['src/b.py']?.termFreq).toEqual({ fromjson: 2, raw: 1 });
  });

  it('throws SearchError rg_not_found when CTXLOOP_RG names a missing file', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    const searcher = createSearcher({ env: { CTXLOOP_RG: '/nonexistent/rg' } });
    await expect(searcher.search(request(r.root, { keywords: ['alpha'] }))).rejects.toMatchObject({ name: 'SearchError', code: 'rg_not_found' });
  });

  it('says the root is gone when it was removed before rg started in it (rg was blamed: could not start ripgrep)', async () => {
    // the searcher checks the root first: the root goes between that check and rg's start
    const r = repo({ 'a.ts': 'alpha\n' });
    rmSync(r.root, { recursive: true, force: true });
    const rgPath = await resolveRgPath(process.env, silentLogger);
    const failed = await runRg({ rgPath, root: r.root, args: ['--files'], logger: silentLogger }, () => undefined).catch((e: Error) => e);
    expect(failed).toMatchObject({ name: 'UsageError', code: 'root_not_found' });
    expect((failed as Error).message).toBe(`root not found: ${r.root} (it was removed or moved during the run)`);
  });

  it('says which ripgrep it uses', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    const debug: string[] = [];
    await createSearcher({ logger: { ...silentLogger, debug: (m) => debug.push(m) }, env: {} }).search(request(r.root, { keywords: ['alpha'] }));
    expect(debug.some((m) => /^ripgrep: .*rg \(bundled by @vscode\/ripgrep\)$/.test(m))).toBe(true);
  });

  it('kills the running rg when the search is aborted', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    const pidFile = join(r.root, 'pid');
    const fake = join(r.root, 'slow-rg.sh');
    writeFileSync(fake, `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 30\n`);
    chmodSync(fake, 0o755);
    const controller = new AbortController();
    const running = createSearcher({ env: { CTXLOOP_RG: fake } }).search(request(r.root, { keywords: ['alpha'] }), controller.signal);
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
    expect(() => process.kill(Number(readFileSync(pidFile, 'utf8')), 0)).toThrow();
  });

  it('throws aborted when the signal is aborted', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    await expect(createSearcher().search(request(r.root, { keywords: ['alpha'] }), AbortSignal.abort())).rejects.toMatchObject({ code: 'aborted' });
  });
});
