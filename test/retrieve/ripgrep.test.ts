import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../src/core/log.js';
import { resolveRgPath } from '../../src/retrieve/rg-path.js';
import { chunkPatterns, preparePatterns, runRipgrep, type RipgrepMatch, type RipgrepRun } from '../../src/retrieve/ripgrep.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();

async function search(root: string, patterns: string[], extra: Partial<RipgrepRun> = {}): Promise<RipgrepMatch[]> {
  const rgPath = await resolveRgPath(process.env, silentLogger);
  const matches: RipgrepMatch[] = [];
  await runRipgrep({ rgPath, root, paths: [''], patterns, iglobs: [], globs: [], maxFileSize: 1_000_000, logger: silentLogger, ...extra }, (m) => matches.push(m));
  return matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/** A stand-in rg: a real program on disk, spawned for real (never a mocked child_process). */
function fakeRg(dir: string, script: string): string {
  const path = join(dir, 'fake-rg.sh');
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('runRipgrep', () => {
  it('reports root-relative paths, 1-based lines, CRLF stripped, non-UTF-8 lines decoded', async () => {
    const r = repo({ 'src/a.ts': 'one\r\nfind me\r\n', 'latin.txt': Buffer.from('caf\xe9 find here\n', 'latin1') });
    const matches = await search(r.root, ['FIND']);
    expect(matches).toEqual([
      { path: 'latin.txt', line: 1, text: 'caf\uFFFD find here' },
      { path: 'src/a.ts', line: 2, text: 'find me' },
    ]);
  });

  it('treats patterns as literals: regex metacharacters match only themselves', async () => {
    const r = repo({ 'a.ts': 'call foo(bar[0])\n', 'b.ts': 'foobar\n', 'c.ts': 'x = a.*b\n', 'd.ts': 'aXXb\n' });
    expect((await search(r.root, ['foo(bar[', 'a.*b'])).map((m) => m.path)).toEqual(['a.ts', 'c.ts']);
  });

  it('leaves out files with NUL bytes, found by content', async () => {
    const r = repo({ 'blob.dat': Buffer.from('needle\0\x01\x02needle\n'), 'noext': Buffer.from('\0needle\n'), 'ok.txt': 'needle\n' });
    expect((await search(r.root, ['needle'])).map((m) => m.path)).toEqual(['ok.txt']);
    // named directly, rg searches a binary file anyway and flags it at the end: still left out
    expect(await search(r.root, ['needle'], { paths: ['blob.dat'] })).toEqual([]);
  });

  it('reads a long file to its end: a rare term after hundreds of common matches is still found', async () => {
    const body = `${'const value = parse(input);\n'.repeat(1500)}export function verifyEmail() {}\n`;
    const r = repo({ 'src/types.ts': body });
    const matches = await search(r.root, ['parse', 'verifyEmail']);
    expect(matches.find((m) => m.text.includes('verifyEmail'))?.line).toBe(1501);
  });

  it('finds nothing without throwing when no line matches', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    expect(await search(r.root, ['zeta'])).toEqual([]);
  });

  it('throws search_failed with rg’s first stderr line when rg cannot run the search', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    const error = await search(r.root, ['alpha'], { globs: ['!{'] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'SearchError', code: 'search_failed' });
    expect((error as Error).message).toMatch(new RegExp(`^ripgrep failed in ${r.root}: error parsing glob '!\\{'`));
    expect((error as Error).message).not.toContain('\n');
  });

  it('keeps the matches and warns when rg exits 2 after finishing (some files unreadable)', async () => {
    const r = repo({});
    const events = [
      { type: 'begin', data: { path: { text: './a.ts' } } },
      { type: 'match', data: { path: { text: './a.ts' }, lines: { text: 'alpha\n' }, line_number: 3 } },
      { type: 'end', data: { path: { text: './a.ts' }, binary_offset: null } },
      { type: 'summary', data: {} },
    ];
    const rgPath = fakeRg(r.root, `cat <<'EOF'\n${events.map((e) => JSON.stringify(e)).join('\n')}\nEOF\necho "rg: ./locked.ts: Permission denied (os error 13)" >&2\nexit 2`);
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (m) => warnings.push(m) };
    expect(await search(r.root, ['alpha'], { rgPath, logger })).toEqual([{ path: 'a.ts', line: 3, text: 'alpha' }]);
    expect(warnings).toEqual([`ripgrep skipped some files in ${r.root}: ./locked.ts: Permission denied (os error 13)`]);
  });

  it('kills rg when the signal aborts, and throws aborted', async () => {
    const r = repo({});
    const pidFile = join(r.root, 'pid');
    const rgPath = fakeRg(r.root, `echo $$ > '${pidFile}'\nexec sleep 30`);
    const controller = new AbortController();
    const running = search(r.root, ['alpha'], { rgPath, signal: controller.signal });
    while (!existsSync(pidFile) || readFileSync(pidFile, 'utf8').trim() === '') await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'aborted' });
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('throws aborted without starting rg when the signal is already aborted', async () => {
    const r = repo({ 'a.ts': 'alpha\n' });
    await expect(search(r.root, ['alpha'], { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('patterns', () => {
  it('drops empties, repeats (case-insensitively) and line breaks', () => {
    expect(preparePatterns(['Foo', 'foo', '', 'a\nb', '  '])).toEqual(['Foo', 'a', 'b']);
  });

  it('splits more than 200 patterns into a few runs', () => {
    const patterns = Array.from({ length: 450 }, (_, i) => `p${i}`);
    expect(chunkPatterns(patterns).map((c) => c.length)).toEqual([200, 200, 50]);
  });
});
