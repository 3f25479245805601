import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../src/core/log.js';
import { resolveRgPath } from '../../src/retrieve/rg-path.js';
import { MatchLog } from '../../src/retrieve/match-log.js';
import { createFragmentMatcher, MAX_NEW_FRAGMENTS_PER_FILE, type FragmentTerms } from '../../src/retrieve/scan-reader.js';
import { replayLines, scanPatterns, scanTerms, type FileTally, type ScanRun, type ScanTerms } from '../../src/retrieve/scan.js';
import { useTempRepos } from '../helpers/make-repo.js';
import { tokenize } from '../../src/core/text.js';

const repo = useTempRepos();

function terms(partial: Partial<ScanTerms>): ScanTerms {
  return { keywords: [], literals: [], symbols: [], ...partial };
}

async function scan(root: string, wanted: Partial<ScanTerms>, extra: Partial<ScanRun> = {}): Promise<Record<string, FileTally>> {
  const rgPath = await resolveRgPath(process.env, silentLogger);
  const out: Record<string, FileTally> = {};
  await scanTerms({ rgPath, root, paths: [''], terms: terms(wanted), iglobs: [], globs: [], maxFileSize: 1_000_000, logger: silentLogger, ...extra }, (path, tally) => {
    out[path] = tally;
  });
  return out;
}

/** A stand-in rg: a real program on disk, spawned for real (never a mocked child_process). */
function fakeRg(dir: string, script: string): string {
  const path = join(dir, 'fake-rg.sh');
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('scanTerms', () => {
  it('reads past rg\'s note on a binary file it was named, before any heading, and counts the rest', async () => {
    // rg names the file it skips (`data.bin: binary file matches …`) when the file is a path argument, as a re-scan of changed files makes it
    const r = repo({ 'data.bin': 'hello\0world hello\n', 'src/b.ts': 'const hello = 1;\n' });
    const found = await scan(r.root, { keywords: ['hello'] }, { paths: ['data.bin', 'src/b.ts'] });
    expect(Object.keys(found)).toEqual(['src/b.ts']);
    expect(found['src/b.ts']?.termFreq).toEqual({ hello: 1 });
  });

  it('cuts at most MAX_NEW_FRAGMENTS_PER_FILE new names a file, counts names seen before past them, says so once, and leaves other files whole', async () => {
    // 6,000 distinct names holding `verify`, then names met before, then a rare word past the share
    const names = Array.from({ length: MAX_NEW_FRAGMENTS_PER_FILE + 1000 }, (_, i) => `verifyEmail_${i}`);
    const dense = [...names, 'verifyEmail_1 verifyEmail_2', 'tokenOnlyHere'].join('\n');
    const r = repo({ 'gen/dense.ts': `${dense}\n`, 'src/a.ts': 'function verifyToken() {}\nconst verifyEmail_1 = verifyToken;\n' });
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (m) => warnings.push(m) };
    const found = await scan(r.root, { keywords: ['verify', 'email', 'token'] }, { logger });
    // counted: every name up to the share, and the two met before; `tokenOnlyHere` is new past it
    expect(found['gen/dense.ts']?.termFreq).toEqual({ verify: 50, email: 50 });
    expect(found['src/a.ts']?.termFreq).toEqual({ verify: 3, token: 2, email: 1 });
    expect(warnings).toEqual(['1 file holds more than 5,000 distinct names with the task\'s words (generated code?): only names already seen were counted past them']);
    // a real file, however long, brings far fewer: nothing is said
    warnings.length = 0;
    const plain = repo({ 'src/big.ts': `${Array.from({ length: 3000 }, (_, i) => `verifyEmail_${i % 1500}`).join('\n')}\n` });
    expect((await scan(plain.root, { keywords: ['verify'] }, { logger }))['src/big.ts']?.termFreq).toEqual({ verify: 50 });
    expect(warnings).toEqual([]);
  });

  it('replays every match the log kept of a file, however many new names it holds (the scan knew them from files read before)', () => {
    const scanned = terms({ keywords: ['verify', 'email'] });
    const matcher = createFragmentMatcher(scanned);
    const log = new MatchLog<FragmentTerms>();
    log.startFile('gen/b.ts');
    for (let i = 0; i < MAX_NEW_FRAGMENTS_PER_FILE + 1000; i++) log.add(i + 1, matcher.match(`verifyEmail_${i}`)!);
    log.endFile();
    const lines = replayLines(log, ['gen/b.ts'], scanned);
    expect(lines.get('gen/b.ts')?.size).toBe(MAX_NEW_FRAGMENTS_PER_FILE + 1000);
  });

  it('counts whole terms per root-relative file: parts of identifiers, any case, not inside other words', async () => {
    const r = repo({ 'src/a.ts': 'const parseConfig = PARSE_CONFIG;\nparser.parse(x)\n', 'b.ts': 'sparse\n', 'c.txt': 'caf\xe9 parse\n' });
    const found = await scan(r.root, { keywords: ['pars', 'config'] });
    expect(Object.keys(found).sort()).toEqual(['c.txt', 'src/a.ts']);
    // parseConfig, PARSE_CONFIG, parse (parser stems to `parser`); config twice
    expect(found['src/a.ts']?.termFreq).toEqual({ pars: 3, config: 2 });
  });

  it('counts a four-letter stem ending in y in its -ies form too (copy: copies, copyFile)', async () => {
    const r = repo({ 'a.ts': 'const copies = copyFile(bodies);\n' });
    const found = await scan(r.root, { keywords: ['copy', 'body'] });
    expect(found['a.ts']?.termFreq).toEqual({ copy: 2, body: 1 });
  });

  it('counts a pair term where its two words are adjacent parts of one identifier, scanned alone', async () => {
    // `read respons` of a title's "read response": readResponseHeaders and READ_RESPONSE, not responseRead, readBody or a comment's words
    const r = repo({
      'codec.kt': 'fun readResponseHeaders() = READ_RESPONSE\nval responseRead = 1\n',
      'other.kt': 'fun readBody() = response\n// read response here\n',
    });
    const found = await scan(r.root, { keywords: ['read respons'] });
    expect(Object.keys(found)).toEqual(['codec.kt']);
    expect(found['codec.kt']?.termFreq).toEqual({ 'read respons': 2 });
  });

  it('reads each identifier again as it was read the first time, in any script and however far apart', async () => {
    // identifiers repeat: the later ones are known by their bytes, and must count as the first did
    const line = 'проверитьПочту(почта) parseConfig cafeParse PARSE_CONFIG\n';
    const filler = Array.from({ length: 300 }, (_, i) => `const other${i} = parse${i};\n`).join('');
    const r = repo({ 'a.ts': `${line}${filler}${line}`, 'b.ts': `${line}${line}${line}` });
    const keywords = ['почту', 'почта', 'pars', 'config', 'other'];
    const found = await scan(r.root, { keywords });
    const expected = (text: string): Record<string, number> => {
      const counts: Record<string, number> = {};
      for (const term of tokenize(text)) if (keywords.includes(term)) counts[term] = Math.min(50, (counts[term] ?? 0) + 1);
      return counts;
    };
    expect(found['b.ts']?.termFreq).toEqual(expected(`${line}${line}${line}`));
    expect(found['a.ts']?.termFreq).toEqual(expected(`${line}${filler}${line}`));
    expect(found['b.ts']?.termFreq).toEqual({ почту: 3, почта: 3, pars: 9, config: 6 });
  });

  it('counts each keyword exactly as the tokenizer cuts identifiers, wherever its parts start', async () => {
    const text = 'position post getOS os_type $os HTTPServer md5os OSVersion xpos posOs a$os_server servers\n$server getServerOs serverOS\n';
    const r = repo({ 'a.ts': text });
    const keywords = ['os', 'server', 'serveros'];
    const found = await scan(r.root, { keywords });
    const expected: Record<string, number> = {};
    for (const term of tokenize(text)) if (keywords.includes(term)) expected[term] = (expected[term] ?? 0) + 1;
    expect(found['a.ts']?.termFreq).toEqual(expected);
    expect(expected).toEqual({ os: 9, server: 6, serveros: 1 });
  });

  it('takes a symbol only as a whole identifier, not after a `$` or inside another', async () => {
    const r = repo({ 'a.ts': 'import x; $port = 1\n', 'b.ts': 'export const port = 1;\n', 'c.ts': 'const $scope = 1;\n' });
    const found = await scan(r.root, { symbols: ['port', '$scope'] });
    expect(Object.fromEntries(Object.entries(found).map(([p, t]) => [p, [...t.symbols]]))).toEqual({ 'b.ts': ['port'], 'c.ts': ['$scope'] });
  });

  it('matches literals verbatim and case-insensitively, and symbols as whole identifiers in their case', async () => {
    const r = repo({ 'a.ts': 'throw new Error("Foo(bar[ broke");\n', 'c.ts': 'x = A.*B\n', 'd.ts': 'aXXb sendMail()\n', 'e.ts': 'sendMailLater(); SENDMAIL\n' });
    const found = await scan(r.root, { literals: ['foo(bar[', 'a.*b'], symbols: ['sendMail'] });
    expect(Object.fromEntries(Object.entries(found).map(([p, t]) => [p, [...t.literals, ...t.symbols]]))).toEqual({ 'a.ts': ['foo(bar['], 'c.ts': ['a.*b'], 'd.ts': ['sendMail'] });
  });

  it('counts the identifiers inside a literal too, and records the terms of each line when asked', async () => {
    const r = repo({ 'a.ts': 'log("token expired")\nconst token = 1; expire(token)\n' });
    const found = await scan(r.root, { keywords: ['token', 'expir'], literals: ['token expired'] }, { lines: true });
    expect(found['a.ts']?.termFreq).toEqual({ token: 3, expir: 2 });
    expect(found['a.ts']?.lines).toEqual(new Map([[1, ['token', 'expir', 'token expired']], [2, ['token', 'expir']]]));
  });

  it('keeps a backslash in a file name as part of it, where the platform does not separate with it', async () => {
    const r = repo({ 'back\\slash.ts': 'parseWidget()\n', 'src/a.ts': 'parseWidget()\n' });
    const found = await scan(r.root, { keywords: ['widget'] });
    expect(Object.keys(found).sort()).toEqual(process.platform === 'win32' ? ['back/slash.ts', 'src/a.ts'] : ['back\\slash.ts', 'src/a.ts']);
  });

  it('reads a file whose name holds line breaks, and every file after it', async () => {
    const r = repo({ 'a.ts': 'parseWidget()\n', 'new\nline.ts': 'parseWidget()\n', 'two\n\nbreaks.ts': 'parseWidget()\n', 'z.ts': 'parseWidget()\n' });
    const found = await scan(r.root, { keywords: ['widget'] });
    expect(Object.keys(found).sort()).toEqual(['a.ts', 'new\nline.ts', 'two\n\nbreaks.ts', 'z.ts']);
  });

  it('leaves out files with NUL bytes, early or after the first matches', async () => {
    const late = Buffer.concat([Buffer.from('needle\n'), Buffer.alloc(300_000, 'x'), Buffer.from('\n\0needle\n')]);
    const r = repo({ 'blob.dat': Buffer.from('needle\0\x01\x02needle\n'), 'late.txt': late, 'ok.txt': 'needle\n' });
    expect(Object.keys(await scan(r.root, { keywords: ['needl'] }))).toEqual(['ok.txt']);
  });

  it('reads a long file to its end: a rare term after hundreds of common matches is still counted', async () => {
    const body = `${'const value = parse(input);\n'.repeat(1500)}export function verifyEmail() {}\n`;
    const r = repo({ 'src/types.ts': body });
    const found = await scan(r.root, { keywords: ['pars', 'verifyemail'] }, { lines: true });
    expect(found['src/types.ts']?.termFreq).toEqual({ pars: 50, verifyemail: 1 });
    expect(found['src/types.ts']?.lines?.get(1501)).toEqual(['verifyemail']);
  });

  it('counts a term the same whatever else is scanned: the whole term of a snake_case name has no substring of its own', async () => {
    const r = repo({ 'a.py': 'def from_json(data):\n    return FROM_JSON_TABLE[data] or fromJson(data)\n', 'b.py': 'import json\n' });
    const alone = await scan(r.root, { keywords: ['fromjson'] });
    const together = await scan(r.root, { keywords: ['fromjson', 'json', 'data'] });
    expect(alone['a.py']?.termFreq).toEqual({ fromjson: 2 });
    expect(together['a.py']?.termFreq.fromjson).toBe(2);
    expect(alone['b.py']).toBeUndefined();
  });

  it('finds a literal that starts where a word pattern also matches', async () => {
    const r = repo({ 'a.c': 'die("error: cannot allocate memory");\n', 'b.c': 'if (!ok) return NOT_FOUND;\n' });
    const found = await scan(r.root, { keywords: ['not', 'memory'], literals: ['cannot allocate memory'] });
    expect([...found['a.c']!.literals]).toEqual(['cannot allocate memory']);
    expect(found['a.c']!.termFreq).toEqual({ memory: 1 }); // `not` is no part of `cannot`
    expect(found['b.c']!.termFreq).toEqual({ not: 1 });
  });

  it('counts every term as it counts it alone, though neighbouring terms share one pattern', async () => {
    const r = repo({
      'a.ts': 'const fromJson = from_json($data); // token-expired\nexport class UserStore { save$() { return проверитьПочту(USER_STORE) } }\n',
      'b.py': 'def get_user_store(x):\n    return x.token_expired or STORE\n',
    });
    const all = terms({ keywords: ['fromjson', 'json', 'stor', 'user', 'провер', 'expir'], literals: ['token-expired'], symbols: ['UserStore', 'save$', 'x.token_expired'] });
    const together = await scan(r.root, all, { lines: true });
    const singles = [...all.keywords.map((k) => terms({ keywords: [k] })), ...all.literals.map((l) => terms({ literals: [l] })), ...all.symbols.map((s) => terms({ symbols: [s] }))];
    const alone: Record<string, { termFreq: Record<string, number>; literals: string[]; symbols: string[]; lines: Record<number, string[]> }> = {};
    for (const single of singles) {
      for (const [path, tally] of Object.entries(await scan(r.root, single, { lines: true }))) {
        const merged = (alone[path] ??= { termFreq: {}, literals: [], symbols: [], lines: {} });
        Object.assign(merged.termFreq, tally.termFreq);
        merged.literals.push(...tally.literals);
        merged.symbols.push(...tally.symbols);
        for (const [line, onLine] of tally.lines ?? []) merged.lines[line] = [...(merged.lines[line] ?? []), ...onLine].sort();
      }
    }
    const view = Object.fromEntries(
      Object.entries(together).map(([path, t]) => [path, { termFreq: t.termFreq, literals: [...t.literals], symbols: [...t.symbols], lines: Object.fromEntries([...(t.lines ?? [])].map(([n, onLine]) => [n, [...onLine].sort()])) }]),
    );
    expect(view).toEqual(alone);
    expect(together['a.ts']?.termFreq).toEqual({ fromjson: 2, json: 2, stor: 2, user: 2, провер: 1, expir: 1 });
  });

  it('replays the lines of a kept scan exactly as a scan of those files for them finds them', async () => {
    const r = repo({
      'a.ts': 'log("Set-Cookie expired")\nconst token = 1; expire(token) // set-cookie\nexport class UserStore { save$() {} }\n',
      'b.py': 'def get_user_store(x):\n    return x.token_expired or STORE\n',
      'c.md': 'nothing to see\n',
    });
    const all = terms({ keywords: ['token', 'expir', 'stor', 'user'], literals: ['Set-Cookie', 'set-cookie'], symbols: ['UserStore', 'save$', 'x.token_expired'] });
    const rgPath = await resolveRgPath(process.env, silentLogger);
    const run = { rgPath, root: r.root, iglobs: [], globs: [], maxFileSize: 1_000_000, logger: silentLogger };
    const kept = new MatchLog<FragmentTerms>();
    // the whole-scope scan runs the terms once each (literals differing in case are one term)
    const once = terms({ ...all, literals: ['Set-Cookie'] });
    await scanTerms({ ...run, paths: [''], terms: once, matchLog: kept }, () => undefined);
    expect(scanPatterns(once)).toEqual(scanPatterns(all));
    const scanned = new Map<string, Map<number, string[]>>();
    const paths = ['a.ts', 'b.py', 'c.md'];
    await scanTerms({ ...run, paths, terms: all, lines: true }, (path, tally) => tally.lines && scanned.set(path, tally.lines));
    expect(replayLines(kept, paths, all)).toEqual(scanned);
    expect(scanned.get('a.ts')?.get(1)).toEqual(['expir', 'Set-Cookie', 'set-cookie']);
    // replayed for the very terms the scan ran, it takes the scan's cuts: the same lines as a scan for them
    const scannedOnce = new Map<string, Map<number, string[]>>();
    await scanTerms({ ...run, paths, terms: once, lines: true }, (path, tally) => tally.lines && scannedOnce.set(path, tally.lines));
    expect(replayLines(kept, paths, once)).toEqual(scannedOnce);
    expect(scannedOnce.get('a.ts')?.get(1)).toEqual(['expir', 'Set-Cookie']);
  });

  it('keeps no matches of a file found binary part-way, and none at all past its budget', async () => {
    const late = Buffer.concat([Buffer.from('needle\n'), Buffer.alloc(300_000, 'x'), Buffer.from('\n\0needle\n')]);
    const r = repo({ 'late.txt': late, 'ok.txt': 'needle\nneedle needle\n' });
    const rgPath = await resolveRgPath(process.env, silentLogger);
    const run = { rgPath, root: r.root, paths: [''], terms: terms({ keywords: ['needl'] }), iglobs: [], globs: [], maxFileSize: 1_000_000, logger: silentLogger };
    const log = new MatchLog<FragmentTerms>();
    await scanTerms({ ...run, matchLog: log }, () => undefined);
    const seen = (path: string): number[] => {
      const lines: number[] = [];
      log.forEachMatch(path, (line) => lines.push(line));
      return lines;
    };
    expect([seen('ok.txt'), seen('late.txt')]).toEqual([[1, 2, 2], []]);
    const small = new MatchLog<FragmentTerms>(2);
    await scanTerms({ ...run, matchLog: small }, () => undefined);
    expect(small.overflowed).toBe(true);
    const none: number[] = [];
    small.forEachMatch('ok.txt', (line) => none.push(line));
    expect(none).toEqual([]);
  });

  it('finds nothing without throwing when nothing matches', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    expect(await scan(r.root, { keywords: ['zeta'] })).toEqual({});
  });

  it('throws search_failed with rg’s first stderr line when rg cannot run the search', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    const error = await scan(r.root, { keywords: ['alpha'] }, { globs: ['!{'] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SearchError', code: 'search_failed' });
    expect((error as Error).message).toMatch(new RegExp(`^ripgrep failed in ${r.root}: error parsing glob '!\\{'`));
    expect((error as Error).message).not.toContain('\n');
  });

  it('keeps the counts and warns when rg exits 2 for files it could not read', async () => {
    const r = repo({});
    const rgPath = fakeRg(r.root, `printf './a.ts\\0003:alpha\\n'\necho "rg: ./locked.ts: Permission denied (os error 13)" >&2\nexit 2`);
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (m) => warnings.push(m) };
    expect((await scan(r.root, { keywords: ['alpha'] }, { rgPath, logger }))['a.ts']?.termFreq).toEqual({ alpha: 1 });
    expect(warnings).toEqual([`ripgrep skipped some files in ${r.root}: ./locked.ts: Permission denied (os error 13)`]);
  });

  it('kills rg when the signal aborts, and throws aborted', async () => {
    const r = repo({});
    const pidFile = join(r.root, 'pid');
    const rgPath = fakeRg(r.root, `echo $$ > '${pidFile}'\nexec sleep 30`);
    const controller = new AbortController();
    const running = scan(r.root, { keywords: ['alpha'] }, { rgPath, signal: controller.signal });
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
    expect(() => process.kill(Number(readFileSync(pidFile, 'utf8')), 0)).toThrow();
  });

  it('throws aborted without starting rg when the signal is already aborted', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    await expect(scan(r.root, { keywords: ['alpha'] }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('scanPatterns', () => {
  it('escapes metacharacters, puts spans first, and drops repeats and empties', () => {
    const start = '(?:(?-u:\\B)[$]+)?(?-u:\\b)';
    expect(scanPatterns(terms({ keywords: ['entry', 'entry', ''], literals: ['a.*b', ''], symbols: ['User.save', 'save$', '$scope', ''] }))).toEqual([
      '(?i:a\\.\\*b)[A-Za-z0-9_$]*',
      'User\\.save[A-Za-z0-9_$]*',
      `${start}(?:[A-Za-z0-9_$]*[_$0-9])?(?i:entr)[A-Za-z0-9_$]*`,
      `${start}[A-Za-z0-9_$]*E(?i:ntr)[A-Za-z0-9_$]*`,
      `${start}[_$]*(?i:e[_$]*n[_$]*t[_$]*r[_$]*y)[A-Za-z0-9_$]*`,
      `${start}save\\$[A-Za-z0-9_$]*`,
      '[A-Za-z0-9_$]*\\$scope[A-Za-z0-9_$]*',
    ]);
  });

  it('gives literals differing only in case one pattern, the first spelling', () => {
    expect(scanPatterns(terms({ literals: ['Set-Cookie', 'x', 'SET-COOKIE', 'set-cookie'] }))).toEqual(['(?i:Set\\-Cookie)[A-Za-z0-9_$]*', '(?i:x)[A-Za-z0-9_$]*']);
  });

  it('gives a term in another script a pattern of its own, found anywhere in an identifier', () => {
    const start = '(?:(?-u:\\B)[$]+)?(?-u:\\b)';
    expect(scanPatterns(terms({ keywords: ['user', 'почт', 'stor'] }))).toEqual([
      '[A-Za-z0-9_$]*(?i:почт)[A-Za-z0-9_$]*',
      `${start}(?:[A-Za-z0-9_$]*[_$0-9])?(?:(?i:user)|(?i:stor))[A-Za-z0-9_$]*`,
      `${start}[A-Za-z0-9_$]*(?:U(?i:ser)|S(?i:tor))[A-Za-z0-9_$]*`,
      `${start}[_$]*(?:(?i:u[_$]*s[_$]*e[_$]*r)|(?i:s[_$]*t[_$]*o[_$]*r))[A-Za-z0-9_$]*`,
    ]);
  });
});
