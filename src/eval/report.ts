import { aggregateRecords, groupByLanguage, type Aggregate } from './metrics.js';
import type { EvalMethod, EvalRecord } from './types.js';

export interface ReportMeta {
  method: EvalMethod;
  /** Dataset file, as given. */
  dataset: string;
  /** Where the per-task records were written. */
  out?: string;
}

export interface ReportSection {
  overall: Aggregate;
  languages: Record<string, Aggregate>;
}

/** What `--json` prints: the aggregates overall and per language, and the first cycle's when recorded. */
export interface EvalReport extends ReportMeta, ReportSection {
  tasks: number;
  cycle1?: ReportSection;
}

export function buildReport(records: readonly EvalRecord[], meta: ReportMeta): EvalReport {
  const report: EvalReport = { ...meta, tasks: records.length, ...buildSection(records) };
  if (records.length > 0 && records.every((record) => record.cycle1 !== undefined)) {
    report.cycle1 = buildSection(records, (record) => record.cycle1?.metrics ?? record.metrics);
  }
  return report;
}

function buildSection(records: readonly EvalRecord[], pick?: Parameters<typeof aggregateRecords>[1]): ReportSection {
  // own keys whatever the dataset calls a language (`__proto__` would set the prototype)
  const languages: Record<string, Aggregate> = Object.fromEntries([...groupByLanguage(records)].map(([language, group]) => [language, aggregateRecords(group, pick)]));
  return { overall: aggregateRecords(records, pick), languages };
}

const HEADER = ['set', 'n', 'Acc@1', 'Hit@5', 'Acc@5', 'Recall@10', 'MRR', 'packed', 'gold in packed %', 'tokens', 'median s', 'P95 s', 'failures'];

/** The plain-text table: one row per set (all, then each language), a cycle-1 row under each when recorded. */
export function renderReport(report: EvalReport): string {
  const rows: string[][] = [];
  const model = report.overall.inputTokens !== null;
  const sets: Array<[string, Aggregate, Aggregate | undefined]> = [['all', report.overall, report.cycle1?.overall]];
  for (const [language, aggregate] of Object.entries(report.languages)) sets.push([language, aggregate, report.cycle1?.languages[language]]);
  for (const [name, aggregate, cycle1] of sets) {
    rows.push([...renderRow(name, aggregate, false), ...(model ? modelCells(aggregate) : [])]);
    if (cycle1) rows.push([...renderRow(`${name} (cycle 1)`, cycle1, true), ...(model ? ['–', '–', '–'] : [])]);
  }
  const title = `ctxloop eval: ${report.method} on ${report.dataset}, ${report.tasks} task${report.tasks === 1 ? '' : 's'}`;
  return [title, '', ...renderTable(model ? [...HEADER, ...MODEL_HEADER] : HEADER, rows), ...(report.out ? ['', `records: ${report.out}`] : [])].join('\n') + '\n';
}

/** Model input tokens (the APIs' own counts), shown when a provider was asked for. */
const MODEL_HEADER = ['in tok/task', 'in tok/cycle', 'fallbacks'];

function modelCells(a: Aggregate): string[] {
  return [orDash(a.inputTokens, 0), orDash(a.inputTokensPerCycle, 0), String(a.fallbacks)];
}

function renderRow(name: string, a: Aggregate, rankingOnly: boolean): string[] {
  const ranks = [name, String(a.n), fixed(a.acc1, 1), fixed(a.hit5, 1), fixed(a.acc5, 1), fixed(a.recall10, 1), fixed(a.mrr, 3)];
  if (rankingOnly) return [...ranks, '–', '–', '–', '–', '–', '–'];
  return [
    ...ranks,
    orDash(a.packedFiles, 1),
    orDash(a.goldInPacked, 1),
    orDash(a.tokens, 0),
    fixed(a.medianSeconds, 2),
    fixed(a.p95Seconds, 2),
    String(a.failures),
  ];
}

/** A Markdown-compatible table, padded so it also reads as plain text; numbers right-aligned. */
function renderTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (column === 0 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)];
}

function fixed(value: number, digits: number): string {
  return value.toFixed(digits);
}

function orDash(value: number | null, digits: number): string {
  return value === null ? '–' : value.toFixed(digits);
}

/** The JSON form; fractions rounded to four decimals. */
export function renderReportJson(report: EvalReport): string {
  return JSON.stringify(report, (_key, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 10_000) / 10_000 : value), 2) + '\n';
}
