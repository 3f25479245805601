import { describe, expect, it } from 'vitest';
import { scoreRanking } from '../../src/eval/metrics.js';
import { buildReport, renderReport, renderReportJson } from '../../src/eval/report.js';
import type { EvalRecord } from '../../src/eval/types.js';

const record = (id: string, language: string, ranking: string[], cycle1Ranking?: string[]): EvalRecord => ({
  id, repo: 'o/r', language, method: 'ctxloop', ranking, files: ranking.slice(0, 1), gold: ['g'], tokens: 100, seconds: 0.5, checkoutSeconds: 0,
  metrics: scoreRanking(ranking, ['g']),
  ...(cycle1Ranking ? { cycle1: { ranking: cycle1Ranking, metrics: scoreRanking(cycle1Ranking, ['g']) } } : {}),
});

describe('renderReport', () => {
  it('shows all, then each language, with packing columns', () => {
    const report = buildReport([record('1', 'python', ['g']), record('2', 'python', ['x', 'g']), record('3', 'go', ['x'])], { method: 'ctxloop', dataset: 'dev.jsonl' });
    const text = renderReport(report);
    expect(text.split('\n').slice(0, 2)).toEqual(['ctxloop eval: ctxloop on dev.jsonl, 3 tasks', '']);
    expect(text).toContain('| all    | 3 |  33.3 |  66.7 |  66.7 |      66.7 | 0.500 |    1.0 |             33.3 |    100 |     0.50 |  0.50 |        0 |');
    expect(text).toMatch(/\| python \| 2 \| +50\.0 \|/);
    expect(text.indexOf('\n| python ')).toBeLessThan(text.indexOf('\n| go '));
  });

  it('adds a cycle-1 row under each set when every record has one', () => {
    const report = buildReport([record('1', 'go', ['g'], ['x', 'g']), record('2', 'go', ['g'], ['x'])], { method: 'ctxloop', dataset: 'd' });
    expect(report.cycle1?.overall).toMatchObject({ acc1: 0, hit5: 50 });
    const text = renderReport(report);
    expect(text).toMatch(/\| all \(cycle 1\) \| 2 \| +0\.0 \| +50\.0 \|.*\| +– \| +– \|\n/);
    expect(text).toMatch(/\| go \(cycle 1\) +\|/);
    expect(JSON.parse(renderReportJson(report))).toMatchObject({ tasks: 2, overall: { acc1: 100 }, cycle1: { overall: { mrr: 0.25 } } });
  });

  it('keeps a language named like an Object.prototype key (`__proto__`, `constructor`) as a row of its own', () => {
    const report = buildReport([record('1', '__proto__', ['g']), record('2', 'constructor', ['x']), record('3', 'go', ['g'])], { method: 'ctxloop', dataset: 'd' });
    expect(Object.keys(report.languages)).toEqual(['__proto__', 'constructor', 'go']);
    expect(report.languages['__proto__']).toMatchObject({ n: 1, acc1: 100 });
    const text = renderReport(report);
    expect(text).toMatch(/\| __proto__ +\| 1 \| +100\.0 \|/);
    const json = JSON.parse(renderReportJson(report)) as { languages: Record<string, { n: number }> };
    expect(Object.keys(json.languages)).toEqual(['__proto__', 'constructor', 'go']);
    expect(Object.getOwnPropertyDescriptor(json.languages, '__proto__')?.value).toMatchObject({ n: 1 });
  });
});
