import { describe, expect, it } from 'vitest';
import { aggregateRecords, groupByLanguage, languageOfTask, quantile, scoreRanking } from '../../src/eval/metrics.js';
import type { EvalRecord } from '../../src/eval/types.js';

describe('scoreRanking', () => {
  it('scores a gold file ranked first', () => {
    expect(scoreRanking(['a.py', 'b.py'], ['a.py'])).toEqual({ acc1: 1, hit5: 1, acc5: 1, recall10: 1, rr: 1 });
  });

  it('counts a gold file at rank 3 as a hit but not acc@1', () => {
    expect(scoreRanking(['x', 'y', 'a.py', 'z'], ['a.py'])).toEqual({ acc1: 0, hit5: 1, acc5: 1, recall10: 1, rr: 1 / 3 });
  });

  it('needs every gold file in the top 5 for acc@5', () => {
    const ranking = ['a', 'g1', 'b', 'c', 'd', 'e', 'g2', 'f'];
    expect(scoreRanking(ranking, ['g1', 'g2'])).toEqual({ acc1: 0, hit5: 1, acc5: 0, recall10: 1, rr: 0.5 });
  });

  it('takes the reciprocal rank beyond 10 and recall only within 10', () => {
    const ranking = Array.from({ length: 12 }, (_, i) => `f${i}`);
    expect(scoreRanking(ranking, ['f11', 'nowhere'])).toEqual({ acc1: 0, hit5: 0, acc5: 0, recall10: 0, rr: 1 / 12 });
  });

  it('gives 0 everywhere when no gold file is ranked', () => {
    expect(scoreRanking(['a', 'b'], ['c'])).toEqual({ acc1: 0, hit5: 0, acc5: 0, recall10: 0, rr: 0 });
    expect(scoreRanking([], ['c']).rr).toBe(0);
  });
});

describe('languageOfTask', () => {
  it('prefers the dataset language, else the gold files’ extension', () => {
    expect(languageOfTask({ language: 'ts', gold_files: ['a.py'] })).toBe('ts');
    expect(languageOfTask({ gold_files: ['src/a.go', 'src/b.go', 'README.md'] })).toBe('go');
  });
});

function record(partial: Partial<EvalRecord> & Pick<EvalRecord, 'metrics'>): EvalRecord {
  return { id: 'x', repo: 'o/r', language: 'python', method: 'ctxloop', ranking: [], files: [], gold: ['g'], tokens: 0, seconds: 1, checkoutSeconds: 0, ...partial };
}

describe('aggregateRecords', () => {
  const hit = scoreRanking(['g'], ['g']);
  const miss = scoreRanking(['a'], ['g']);

  it('averages rates ×100, MRR 0–1, packing and seconds', () => {
    const records = [
      record({ metrics: hit, files: ['g', 'h'], tokens: 100, seconds: 1 }),
      record({ metrics: scoreRanking(['a', 'g'], ['g']), files: ['a'], tokens: 300, seconds: 3 }),
      record({ metrics: miss, seconds: 2, error: 'boom' }),
      record({ metrics: miss, seconds: 10 }),
    ];
    const a = aggregateRecords(records);
    expect(a).toMatchObject({ n: 4, acc1: 25, hit5: 50, acc5: 50, recall10: 50, failures: 1 });
    expect(a.mrr).toBeCloseTo(0.375);
    expect(a.packedFiles).toBe(0.75);
    expect(a.goldInPacked).toBe(25);
    expect(a.tokens).toBe(100);
    expect(a.medianSeconds).toBe(2.5);
    expect(a.p95Seconds).toBe(10);
  });

  it('leaves packing empty for bm25, which packs nothing', () => {
    const a = aggregateRecords([record({ metrics: hit, method: 'bm25' })]);
    expect([a.packedFiles, a.goldInPacked, a.tokens]).toEqual([null, null, null]);
  });

  it('groups languages by size, ties in order of appearance', () => {
    const records = [record({ metrics: hit, language: 'go' }), record({ metrics: hit, language: 'c' }), record({ metrics: hit, language: 'c' }), record({ metrics: hit, language: 'ts' })];
    expect(groupByLanguage(records).map(([language, group]) => [language, group.length])).toEqual([['c', 2], ['go', 1], ['ts', 1]]);
  });

  it('takes nearest-rank quantiles', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(quantile(values, 0.95)).toBe(19);
    expect(quantile([4], 0.5)).toBe(4);
    expect(quantile([], 0.95)).toBe(0);
  });
});
