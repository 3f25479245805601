import { describe, expect, it } from 'vitest';
import type { FileFacts, Score } from '../../src/core/types.js';
import { extractFacts } from '../../src/facts/extract.js';
import { GAP_LINE, renderFileHeading, renderNumberedLines } from '../../src/core/pack-text.js';
import { packFiles, regionText, renderPackText, type PackInput } from '../../src/pack/pack.js';
import { createTokenizer } from '../../src/pack/tokens.js';

const tokenizer = createTokenizer();

function source(name: string, functions: number): string {
  const parts: string[] = [`import { db } from './db';`, ''];
  for (let i = 0; i < functions; i++) {
    parts.push(`export function ${name}Step${i}(input: string): string {`);
    parts.push(`  const value = db.lookup(input, ${i});`);
    parts.push(`  if (!value) throw new Error('missing ${name} step ${i}');`);
    parts.push(`  return value.trim() + '${name}';`);
    parts.push('}', '');
  }
  return parts.join('\n');
}

const TEXTS = new Map<string, string>([
  ['src/auth/verify.ts', source('verify', 12)],
  ['src/auth/session.ts', source('session', 8)],
  ['src/mail/send.ts', source('send', 20)],
  ['src/util/log.ts', source('log', 4)],
]);
const FACTS = new Map<string, FileFacts>([...TEXTS].map(([path, text]) => [path, { path, hash: path, ...extractFacts(path, text) }]));

const SCORES: Score[] = [
  { path: 'src/mail/send.ts', relevance: 0.8, reason: 'sends the mail', missing: [], evidence: [5, 40, 90] },
  { path: 'src/auth/verify.ts', relevance: 0.934, reason: 'defines verifyEmail', missing: [], evidence: [4, 10, 11] },
  { path: 'src/auth/session.ts', relevance: 0.8, reason: 'session checks', missing: [], evidence: [] },
  { path: 'src/util/log.ts', relevance: 0.4, reason: 'logging only', missing: [], evidence: [4] },
];

function pack(budget: number, overrides: Partial<PackInput> = {}) {
  return packFiles({ scores: SCORES, facts: FACTS, texts: TEXTS, threshold: 0.7, budget, tokenizer, withContent: true, ...overrides });
}

/** What a reader of the pack gets, rendered from the result and counted again with the real tokenizer. */
function recount(result: ReturnType<typeof packFiles>): number {
  for (const file of result.files) {
    const lines = TEXTS.get(file.path)!.split('\n');
    for (const region of file.regions) expect(region.content).toBe(regionText(lines, region));
  }
  return tokenizer.count(renderPackText(result.files));
}

describe('packFiles', () => {
  it('never exceeds the budget, recounted from the rendered pack, over many budgets', () => {
    for (let budget = 0; budget <= 5000; budget += budget < 400 ? 10 : 97) {
      const result = pack(budget);
      const counted = recount(result);
      expect(counted).toBe(result.tokens);
      expect(result.tokens).toBeLessThanOrEqual(budget);
    }
  });

  it('packs an empty file that reached the threshold as its heading, within every budget', () => {
    const texts = new Map([...TEXTS, ['src/empty.ts', '']]);
    const facts = new Map([...FACTS, ['src/empty.ts', { path: 'src/empty.ts', hash: 'e', ...extractFacts('src/empty.ts', '') }]]);
    const scores: Score[] = [{ path: 'src/empty.ts', relevance: 0.95, reason: 'named in the task', missing: [], evidence: [] }, ...SCORES];
    const roomy = packFiles({ scores, facts, texts, threshold: 0.7, budget: 5000, tokenizer, withContent: true });
    expect(roomy.files[0]).toMatchObject({ path: 'src/empty.ts', regions: [] });
    expect(roomy.cut.map((c) => c.path)).not.toContain('src/empty.ts');
    for (let budget = 0; budget <= 400; budget += 5) {
      const result = packFiles({ scores, facts, texts, threshold: 0.7, budget, tokenizer, withContent: true });
      expect(tokenizer.count(renderPackText(result.files))).toBe(result.tokens);
      expect(result.tokens).toBeLessThanOrEqual(budget);
      expect(result.files.some((f) => f.path === 'src/empty.ts') || result.cut.some((c) => c.path === 'src/empty.ts')).toBe(true);
    }
  });

  it('lists every region and file it leaves out, with what it would have cost', () => {
    const whole = pack(100_000);
    const wanted = whole.files.flatMap((f) => f.regions.map((r) => `${f.path}:${r.start}-${r.end}`));
    const result = pack(Math.floor(whole.tokens / 2));
    const kept = new Set(result.files.flatMap((f) => f.regions.map((r) => `${f.path}:${r.start}-${r.end}`)));
    for (const key of wanted) {
      if (kept.has(key)) continue;
      const [path, range] = key.split(':') as [string, string];
      const [start, end] = range.split('-').map(Number) as [number, number];
      // Cut as a region (whole or the lines a shrunk window left out), or with its whole file.
      const listed = result.cut.some((c) => c.path === path && (c.start === undefined || (c.start <= end && c.end! >= start)));
      expect(listed, key).toBe(true);
    }
    for (const item of result.cut.filter((c) => c.start !== undefined)) {
      const region = { start: item.start!, end: item.end!, content: regionText(TEXTS.get(item.path)!.split('\n'), { start: item.start!, end: item.end! }) };
      expect(item.tokens).toBe(tokenizer.count(`${renderNumberedLines(region)}\n${GAP_LINE}\n`));
    }
  });

  it('keeps the higher scores first (ties by path) and leaves out files below the threshold', () => {
    const result = pack(100_000);
    expect(result.files.map((f) => f.path)).toEqual(['src/auth/verify.ts', 'src/auth/session.ts', 'src/mail/send.ts']);
    expect(result.files[0]).toMatchObject({ score: 0.93, reason: 'defines verifyEmail' });
    expect(result.cut).toEqual([]);
  });

  it('shows a score as reached only when it reached the threshold (0.6996 showed as 0.70, unpacked at 0.7)', async () => {
    const { shownScore } = await import('../../src/core/numbers.js');
    expect([0.6996, 0.7, 0.7049, 0.29, 0.999, 1, 0].map(shownScore)).toEqual([0.69, 0.7, 0.7, 0.29, 0.99, 1, 0]);
    const result = pack(100_000, { scores: [{ ...SCORES[0]!, relevance: 0.70049 }, { ...SCORES[3]!, relevance: 0.6996 }] });
    expect(result.files.map((f) => [f.path, f.score])).toEqual([['src/mail/send.ts', 0.7]]);
  });

  it('cuts what does not fit, lowest scores first, and says so', () => {
    const whole = pack(100_000).tokens;
    const result = pack(Math.floor(whole / 3));
    expect(result.files[0]?.path).toBe('src/auth/verify.ts');
    expect(result.cut.length).toBeGreaterThan(0);
    expect(result.cut.map((c) => c.path)).toContain('src/mail/send.ts');
    expect(result.cut.every((c) => c.tokens >= 0)).toBe(true);
  });

  it('uses definitions around the evidence, and the header when there is none', () => {
    const result = pack(100_000);
    expect(result.files[0]!.regions.map(({ start, end, symbol }) => ({ start, end, symbol }))).toEqual([
      // One blank line apart: shown as one region rather than two and a gap mark.
      { start: 3, end: 13, symbol: 'verifyStep0, verifyStep1' },
    ]);
    expect(result.files[1]!.regions.map(({ start, end }) => ({ start, end }))).toEqual([{ start: 1, end: 30 }]);
  });

  it('shrinks a region that does not fit to a window around its evidence, and lists the lines left out', () => {
    const file = { path: 'src/auth/verify.ts', score: 0.93, reason: 'defines verifyEmail', regions: [] };
    const one: Score = { path: 'src/auth/verify.ts', relevance: 0.93, reason: 'defines verifyEmail', missing: [], evidence: [5] };
    const whole = { start: 3, end: 7, symbol: 'verifyStep0', content: regionText(TEXTS.get('src/auth/verify.ts')!.split('\n'), { start: 3, end: 7 }) };
    const full = tokenizer.count(renderPackText([{ ...file, regions: [whole] }]));
    expect(full).toBeGreaterThan(tokenizer.count(renderFileHeading(file)));
    const result = pack(full - 1, { scores: [one] });
    const region = result.files[0]!.regions[0]!;
    expect(region.symbol).toBe('verifyStep0');
    expect(region.end - region.start).toBeLessThan(4);
    expect(region.start <= 5 && region.end >= 5).toBe(true);
    expect(result.tokens).toBeLessThanOrEqual(full - 1);
    const left = result.cut.map((c) => [c.start, c.end]);
    expect(left).toEqual([...(region.start > 3 ? [[3, region.start - 1]] : []), ...(region.end < 7 ? [[region.end + 1, 7]] : [])]);
  });

  it('labels a shrunk window, and the lines it leaves out, with the merged symbols whose lines each holds', () => {
    // verifyStep0 (3-7) and verifyStep1 (9-13) are packed as one region, labelled with both
    const one: Score = { path: 'src/auth/verify.ts', relevance: 0.93, reason: 'defines verifyEmail', missing: [], evidence: [4, 11] };
    const whole = pack(100_000, { scores: [one] });
    expect(whole.files[0]!.regions.map(({ start, end, symbol }) => ({ start, end, symbol }))).toEqual([{ start: 3, end: 13, symbol: 'verifyStep0, verifyStep1' }]);
    const spans: Record<string, [number, number]> = { verifyStep0: [3, 7], verifyStep1: [9, 13] };
    const expected = (start: number, end: number): string => Object.keys(spans).filter((name) => spans[name]![0] <= end && spans[name]![1] >= start).join(', ');
    const labels = new Set<string>();
    for (let budget = whole.tokens - 1; budget > 0; budget -= 5) {
      const result = pack(budget, { scores: [one] });
      const region = result.files[0]?.regions[0];
      if (!region) break;
      expect(region.symbol).toBe(expected(region.start, region.end));
      labels.add(region.symbol!);
      for (const left of result.cut) expect(left.symbol).toBe(expected(left.start!, left.end!));
    }
    // the window around line 4 came to show verifyStep0 alone
    expect(labels).toContain('verifyStep0');
  });

  it('cuts a file whole when none of its regions fits, and omits content unless asked', () => {
    const tiny = pack(3);
    expect(tiny.files).toEqual([]);
    expect(tiny.tokens).toBe(0);
    expect(tiny.cut.filter((c) => c.start === undefined).map((c) => c.path)).toEqual(['src/auth/verify.ts', 'src/auth/session.ts', 'src/mail/send.ts']);
    const bare = pack(100_000, { withContent: false });
    expect(bare.files.flatMap((f) => f.regions).some((r) => 'content' in r)).toBe(false);
    expect(bare.tokens).toBe(pack(100_000).tokens);
  });
});
