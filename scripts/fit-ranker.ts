/**
 * Fits the offline ranker's weights on rows from `dump-features.ts` (a listwise softmax over
 * each task's candidates, gold files as the target, L2-regularised), and reports, beside the
 * hand-set scoring, what the fit reaches under leave-one-repository-out cross-validation: every
 * repository is ranked by weights fit on the others, so the numbers say how the fit does on
 * code it never saw. `--write FILE` stores the weights fit on all rows.
 *
 *   npx tsx scripts/fit-ranker.ts rows.jsonl [--l2 0.01] [--write src/evaluate/offline/weights.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { FEATURE_NAMES } from './ranker-features.js';

interface Row { path: string; gold: number; raw: number; relevance: number; x: number[] }
interface TaskRows { id: string; repo: string; language: string; gold: string[]; rows: Row[] }

const { values, positionals } = parseArgs({ allowPositionals: true, options: { l2: { type: 'string' }, write: { type: 'string' }, epochs: { type: 'string' }, rate: { type: 'string' } } });
const file = positionals[0];
if (!file) {
  process.stderr.write('usage: fit-ranker.ts ROWS.jsonl [--l2 X] [--write FILE]\n');
  process.exit(2);
}
const l2 = Number(values.l2 ?? 0.01);
const epochs = Number(values.epochs ?? 400);
const tasks: TaskRows[] = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as TaskRows);
const dims = FEATURE_NAMES.length;

// Features are scaled to unit spread over all rows, so one learning rate and one L2 fit all.
const scale = new Array<number>(dims).fill(0).map((_, d) => {
  const all = tasks.flatMap((t) => t.rows.map((r) => Math.abs(r.x[d]!)));
  return Math.max(1e-9, all.reduce((a, b) => a + b, 0) / Math.max(all.length, 1)) || 1;
});
const norm = (x: number[]): number[] => x.map((v, d) => v / scale[d]!);

function fit(train: TaskRows[]): number[] {
  // Start from the hand-set scoring (lexical 1, definitions and literals 9, mention 16), in normalized units.
  const hand: Record<string, number> = { lexical: 1, definitions: 9, literal: 9, mention: 16 };
  const w = FEATURE_NAMES.map((name, d) => (hand[name] ?? 0) * scale[d]! / scale[0]! * 0.3);
  const lists = train.filter((t) => t.rows.some((r) => r.gold)).map((t) => t.rows.map((r) => ({ x: norm(r.x), gold: r.gold })));
  let rate = Number(values.rate ?? 0.05);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const grad = new Array<number>(dims).fill(0);
    for (const list of lists) {
      const s = list.map((r) => dot(w, r.x));
      const max = Math.max(...s);
      const e = s.map((v) => Math.exp(v - max));
      const z = e.reduce((a, b) => a + b, 0);
      const goldMass = list.reduce((a, r, i) => a + (r.gold ? e[i]! : 0), 0);
      for (const [i, r] of list.entries()) {
        const p = e[i]! / z;
        const q = r.gold ? e[i]! / goldMass : 0;
        for (let d = 0; d < dims; d++) grad[d]! += (p - q) * r.x[d]!;
      }
    }
    for (let d = 0; d < dims; d++) w[d]! -= rate * (grad[d]! / lists.length + l2 * w[d]!);
    if (epoch % 100 === 99) rate *= 0.7;
  }
  return w;
}

function dot(w: number[], x: number[]): number {
  return w.reduce((a, v, d) => a + v * x[d]!, 0);
}

interface Metrics { acc1: number; hit5: number; acc5: number; rr: number }
function metricsOf(task: TaskRows, score: (r: Row) => number): Metrics {
  const ranked = [...task.rows].sort((a, b) => score(b) - score(a) || (a.path < b.path ? -1 : 1)).map((r) => r.path);
  const pos = task.gold.map((g) => ranked.indexOf(g));
  const found = pos.filter((p) => p >= 0);
  const first = found.length ? Math.min(...found) : -1;
  return {
    acc1: first === 0 ? 1 : 0,
    hit5: first >= 0 && first < 5 ? 1 : 0,
    acc5: pos.every((p) => p >= 0 && p < 5) ? 1 : 0,
    rr: first >= 0 && first < 20 ? 1 / (first + 1) : 0,
  };
}

function summarize(label: string, per: Array<{ task: TaskRows; m: Metrics }>): void {
  const groups = new Map<string, Metrics[]>([['all', []]]);
  for (const { task, m } of per) {
    groups.get('all')!.push(m);
    if (!groups.has(task.language)) groups.set(task.language, []);
    groups.get(task.language)!.push(m);
  }
  for (const [name, ms] of groups) {
    const avg = (k: keyof Metrics): string => ((100 * ms.reduce((a, m) => a + m[k], 0)) / ms.length).toFixed(1);
    process.stdout.write(`${label.padEnd(8)} ${name.padEnd(7)} n=${String(ms.length).padStart(3)}  Acc@1 ${avg('acc1')}  Hit@5 ${avg('hit5')}  Acc@5 ${avg('acc5')}  MRR ${(Number(avg('rr')) / 100).toFixed(3)}\n`);
  }
}

// Reliability of the calibrated relevance: the share of gold files among candidates in each band.
for (const [low, high] of [[0.9, 1.01], [0.8, 0.9], [0.7, 0.8], [0.5, 0.7], [0.3, 0.5], [0, 0.3]] as const) {
  const band = tasks.flatMap((t) => t.rows.filter((r) => r.relevance >= low && r.relevance < high));
  const gold = band.filter((r) => r.gold).length;
  process.stdout.write(`relevance [${low.toFixed(1)}, ${Math.min(high, 1).toFixed(1)}${high > 1 ? ']' : ')'}: ${String(band.length).padStart(5)} files, ${band.length ? ((100 * gold) / band.length).toFixed(1) : '–'}% gold\n`);
}
summarize('hand', tasks.map((task) => ({ task, m: metricsOf(task, (r) => r.raw) })));
const repos = [...new Set(tasks.map((t) => t.repo))];
const cv: Array<{ task: TaskRows; m: Metrics }> = [];
for (const repo of repos) {
  const w = fit(tasks.filter((t) => t.repo !== repo));
  for (const task of tasks.filter((t) => t.repo === repo)) cv.push({ task, m: metricsOf(task, (r) => dot(w, norm(r.x))) });
}
summarize('cv', cv);
const full = fit(tasks);
summarize('fit-all', tasks.map((task) => ({ task, m: metricsOf(task, (r) => dot(full, norm(r.x))) })));
const weights = Object.fromEntries(FEATURE_NAMES.map((name, d) => [name, Number((full[d]! / scale[d]!).toPrecision(4))]));
process.stdout.write(`weights (raw units): ${JSON.stringify(weights)}\n`);
if (values.write) writeFileSync(values.write, `${JSON.stringify(weights, null, 2)}\n`);
