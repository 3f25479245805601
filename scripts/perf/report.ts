/** Figures and the Markdown table of `bench:perf`. */

export interface TaskRun {
  task: string;
  rgMs: number;
  coldMs: number;
  warmMs: number;
  /** Empty cache, the command run by `ctxloop serve` for its client. */
  servedMs: number;
  coldRssMb: number;
  warmRssMb: number;
  /** The server's peak so far. */
  servedRssMb: number;
}

export interface SizeReport {
  files: number;
  bytes: number;
  tasks: number;
  /** Medians over the tasks. */
  rgMs: number;
  coldMs: number;
  warmMs: number;
  servedMs: number;
  /** Medians of the per-task ratios. */
  coldRatio: number;
  warmRatio: number;
  servedRatio: number;
  coldP95Ms: number;
  warmP95Ms: number;
  servedP95Ms: number;
  /** Of the command-line runs. */
  peakRssMb: number;
  servedPeakRssMb: number;
  runs: TaskRun[];
}

export interface Line {
  /** Milliseconds per 1,000 files. */
  msPer1kFiles: number;
  interceptMs: number;
  /** Coefficient of determination of the least-squares line. */
  r2: number;
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

/** Linear interpolation between closest ranks. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Least squares through (files, ms). */
export function fitLine(points: ReadonlyArray<readonly [number, number]>): Line {
  const n = points.length;
  if (n < 2) return { msPer1kFiles: Number.NaN, interceptMs: Number.NaN, r2: Number.NaN };
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const slope = sxy / sxx;
  const intercept = my - slope * mx;
  const ssTot = points.reduce((s, [, y]) => s + (y - my) ** 2, 0);
  const ssRes = points.reduce((s, [x, y]) => s + (y - (intercept + slope * x)) ** 2, 0);
  return { msPer1kFiles: slope * 1000, interceptMs: intercept, r2: ssTot === 0 ? 1 : 1 - ssRes / ssTot };
}

const s = (ms: number): string => (ms / 1000).toFixed(2);
const x = (ratio: number): string => `${ratio.toFixed(1)}×`;

export function renderReport(reports: readonly SizeReport[], slopes: Record<'rg' | 'cold' | 'warm' | 'served', Line>): string {
  const rows = reports.map(
    (r) =>
      `| ${r.files.toLocaleString('en-US')} | ${(r.bytes / 1e6).toFixed(0)} | ${r.tasks} | ${s(r.rgMs)} | ${s(r.coldMs)} | ${s(r.warmMs)} | ${x(r.coldRatio)} | ${x(r.warmRatio)} | ${s(r.coldP95Ms)} | ${Math.round(r.peakRssMb)} |`,
  );
  const servedRows = reports.map(
    (r) => `| ${r.files.toLocaleString('en-US')} | ${s(r.rgMs)} | ${s(r.servedMs)} | ${x(r.servedRatio)} | ${s(r.servedP95Ms)} | ${Math.round(r.servedPeakRssMb)} |`,
  );
  const slope = (name: string, line: Line): string => `${name} ${line.msPer1kFiles.toFixed(0)} ms per 1,000 files (intercept ${s(line.interceptMs)} s, R² ${line.r2.toFixed(3)})`;
  return [
    '| files | MB | tasks | rg s | cold s | warm s | cold / rg | warm / rg | cold P95 s | peak RSS MB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    reports.length >= 2
      ? `Slopes (least squares over the sizes): ${slope('rg', slopes.rg)}; ${slope('cold', slopes.cold)}; ${slope('warm', slopes.warm)}; ${slope('served', slopes.served)}.`
      : 'Slopes need two sizes or more (`--sizes 1000,10000`).',
    'Times are medians over the tasks; ratios are medians of the per-task ratios; peak RSS is the largest over cold and warm runs.',
    '',
    'Cold again (an empty cache), with `ctxloop serve` running: the same command line, a client process each, run by the server (two warm-up commands first):',
    '',
    '| files | rg s | served s | served / rg | served P95 s | server peak RSS MB |',
    '|---:|---:|---:|---:|---:|---:|',
    ...servedRows,
    '',
  ].join('\n');
}
