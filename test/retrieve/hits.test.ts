import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import type { Candidate } from '../../src/core/types.js';
import { FileReads, readEvidenceLines, readHits, type KeptScan } from '../../src/retrieve/hits.js';
import { LineIndex } from '../../src/retrieve/line-index.js';
import { MatchLog } from '../../src/retrieve/match-log.js';
import type { FragmentTerms } from '../../src/retrieve/scan-reader.js';
import { scanTerms, type ScanTerms } from '../../src/retrieve/scan.js';
import { loggingRg } from '../helpers/logging-rg.js';
import { useTempRepos } from '../helpers/make-repo.js';

const repo = useTempRepos();

function candidates(paths: string[]): Candidate[] {
  return paths.map((path) => ({ path, size: 0, termFreq: {}, literals: [], symbols: [], mentions: [], hits: [], sources: ['content'] }));
}

describe('readEvidenceLines', () => {
  it("reads a later cycle's candidates from the scans the run kept, each replayed with its own terms: no rg, the same lines as a pass over them", async () => {
    const r = repo({
      'src/cookies.ts': 'export function getCookies(headers) {\n  return headers["set-cookie"] ?? [];\n}\nconst store = new CookieStore();\n',
      'src/server.py': 'def handle(request):\n    cookies = get_cookies(request.headers)\n    return respond(cookies)\n',
      'README.md': 'Cookies are kept as an array of Set-Cookie headers.\n',
    });
    const rg = await loggingRg(r.root);
    const run = { rgPath: rg.path, root: r.root, iglobs: [], globs: [], maxFileSize: 1_000_000, logger: silentLogger };
    // cycle 1 scanned the task's terms, cycle 2 the terms it borrowed: two whole-scope scans kept
    const first: ScanTerms = { keywords: ['cooki', 'header'], literals: ['Set-Cookie'], symbols: [] };
    const second: ScanTerms = { keywords: ['getcookies', 'respond'], literals: [], symbols: ['CookieStore'] };
    const kept: KeptScan[] = [];
    for (const terms of [first, second]) {
      const log = new MatchLog<FragmentTerms>();
      await scanTerms({ ...run, paths: [''], terms, matchLog: log }, () => undefined);
      kept.push({ terms, log });
    }
    const all: ScanTerms = { keywords: [...first.keywords, ...second.keywords], literals: first.literals, symbols: second.symbols };
    const paths = ['src/cookies.ts', 'src/server.py', 'README.md'];

    rg.reset();
    const replayed = candidates(paths);
    await readEvidenceLines(replayed, all, run, new LineIndex(), kept);
    expect(rg.searches()).toBe(0);

    const scanned = candidates(paths);
    await readEvidenceLines(scanned, all, run, new LineIndex());
    expect(rg.searches()).toBeGreaterThan(0);

    // the same lines and terms; a line's terms come scan by scan, as for a candidate of an earlier cycle
    const sorted = (list: Candidate[]): unknown => list.map((c) => c.hits.map((h) => ({ ...h, terms: [...h.terms].sort() })));
    expect(sorted(replayed)).toEqual(sorted(scanned));
    const lines = Object.fromEntries(replayed.map((c) => [c.path, c.hits.map((h) => [h.line, [...h.terms].sort()])]));
    expect(lines['src/cookies.ts']?.map(([line]) => line)).toEqual([1, 2, 4]);
    expect(lines['src/cookies.ts']?.[2]).toEqual([4, ['CookieStore', 'cooki']]);
    expect(lines['src/server.py']?.map(([line]) => line)).toEqual([2, 3]);
  });
});

describe('readHits', () => {
  it('reads as every file is read: a link out of the root, a FIFO or a file over maxFileSize (swapped in since the scan) gives no lines', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'ctxloop-outside-'));
    try {
      writeFileSync(join(outside, 'secret.ts'), 'const token = "outside";\n');
      const r = repo({ 'src/a.ts': 'const token = 1;\n', 'src/big.ts': `const token = 2;\n${'x'.repeat(5000)}\n` });
      symlinkSync(join(outside, 'secret.ts'), join(r.root, 'src/link.ts'));
      if (process.platform === 'linux') execFileSync('mkfifo', [join(r.root, 'src/pipe.ts')]);
      const root = realpathSync(r.root);
      const lines = new Map([[1, ['token']]]);
      expect(await readHits(root, 'src/a.ts', lines, 1000)).toEqual({ hits: [{ line: 1, text: 'const token = 1;', terms: ['token'] }], generated: false });
      expect((await readHits(root, 'src/link.ts', lines, 1000)).hits).toEqual([]);
      expect((await readHits(root, 'src/big.ts', lines, 1000)).hits).toEqual([]);
      if (process.platform === 'linux') expect((await readHits(root, 'src/pipe.ts', lines, 1000)).hits).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("reads a candidate's file once a run: a later cycle takes its lines from the bytes kept, until the bound is passed", async () => {
    const r = repo({ 'src/cookies.ts': 'export function getCookies(headers) {\n  return headers["set-cookie"];\n}\n' });
    const rg = await loggingRg(r.root);
    const run = { rgPath: rg.path, root: r.root, iglobs: [], globs: [], maxFileSize: 1_000_000, logger: silentLogger };
    const terms: ScanTerms = { keywords: ['cooki', 'header'], literals: [], symbols: [] };
    const lines = new LineIndex();
    const files = new FileReads();
    const small = new FileReads(10);
    const textOf = (list: Candidate[]): string[] => list[0]!.hits.map((h) => h.text);
    for (const reads of [files, small]) await readEvidenceLines(candidates(['src/cookies.ts']), terms, run, lines, [], reads);
    // the file changes after the first cycle read it (its lines stay where they were)
    writeFileSync(join(r.root, 'src/cookies.ts'), 'export function getCookies(HEADERS) {\n  return HEADERS["SET-COOKIE"];\n}\n');
    const kept = candidates(['src/cookies.ts']);
    await readEvidenceLines(kept, terms, run, lines, [], files);
    expect(textOf(kept)).toEqual(['export function getCookies(headers) {', '  return headers["set-cookie"];']);
    // past the bound nothing is kept: the file is read again
    const reread = candidates(['src/cookies.ts']);
    await readEvidenceLines(reread, terms, run, lines, [], small);
    expect(textOf(reread)).toEqual(['export function getCookies(HEADERS) {', '  return HEADERS["SET-COOKIE"];']);
  });
});

