/**
 * Speed at scale: for repositories of growing size, in the same run, one bare ripgrep pass with
 * the keywords the planner draws from each task, a cold ctxloop run (empty cache) and a warm one
 * (the same cache again); wall time, ratios to rg, peak RSS, and the slope of each against size.
 *
 *   npm run bench:perf [-- --sizes 1000,10000,50000,100000] [--tasks 5] [--work DIR] [--mirrors ../.mirror]
 *                      [--dataset ../shared/bench/dev.jsonl] [--rg-runs 3] [--json]
 *
 * Then each task once more, cold again (an empty cache), with `ctxloop serve` running: the same
 * command line, run by the server for its client, with the JIT-compiled code and loaded grammars
 * of the commands before it (two warm-up commands first, not counted).
 *
 * Repositories are made of real source (`scripts/perf/generate.ts`) under the work directory,
 * outside the project, and reused. Tasks come from the dataset: those of the repositories whole in
 * the smallest size, so every size runs the same tasks. ctxloop runs offline, from `dist/`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import envPaths from 'env-paths';
import { searchPrefix } from '../src/core/text.js';
import { planQuery } from '../src/refine/plan.js';
import { resolveRgPath } from '../src/retrieve/rg-path.js';
import { silentLogger } from '../src/core/log.js';
import { assemblePool, generateRepo, orderPool, sizeOf } from './perf/generate.js';
import { runMeasured, runNodeMeasured, startServed, type Measured } from './perf/measure.js';
import { fitLine, median, percentile, renderReport, type SizeReport, type TaskRun } from './perf/report.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,50000,100000' },
    tasks: { type: 'string', default: '5' },
    work: { type: 'string', default: join(envPaths('ctxloop', { suffix: '' }).cache, 'bench-perf') },
    mirrors: { type: 'string', default: resolve('..', '.mirror') },
    dataset: { type: 'string', default: resolve('..', 'shared', 'bench', 'dev.jsonl') },
    'rg-runs': { type: 'string', default: '3' },
    json: { type: 'boolean', default: false },
  },
});

const WARM_UP = [
  'Warm-up: the parser rejects an empty config file',
  'Warm-up: the request handler returns an error when the response body is empty, and the client retries until the timeout; the default options and the error message should say which value was missing',
];

interface Task {
  id: string;
  repo: string;
  task: string;
}

const sizes = values.sizes.split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b);
if (sizes.length === 0) throw new Error('--sizes: give file counts, e.g. 1000,10000');
const bin = resolve('dist', 'cli', 'bin.js');
if (!existsSync(bin)) throw new Error('dist/cli/bin.js is missing: run `npm run build` first');
const rgPath = await resolveRgPath(process.env, silentLogger);
const log = (line: string): void => void process.stderr.write(`${line}\n`);

const work = resolve(values.work);
mkdirSync(work, { recursive: true });
log(`bench:perf: work dir ${work}`);
const dataset = readFileSync(values.dataset, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as Task);
// The dataset's repositories only: other mirrors in the folder (a held-out set's) would change
// the repositories generated, and the numbers with them.
const pool = await assemblePool(resolve(values.mirrors), work, new Set(dataset.map(mirrorName)));
if (pool.length === 0) throw new Error(`no mirrors of the dataset's repositories under ${values.mirrors} (<owner>+<name>/repo)`);
const smallestWhole = new Set((await generateRepo(pool, work, sizes[0]!)).whole);
const tasks = pickTasks(dataset, smallestWhole, Number(values.tasks));
if (tasks.length === 0) throw new Error(`no task of ${values.dataset} has its repository whole in ${sizes[0]} files`);
log(`bench:perf: ${tasks.length} tasks (${tasks.map((t) => t.id).join(', ')}), pool of ${orderPool(pool).reduce((n, r) => n + r.files.length, 0)} files`);

// No provider: the offline loop is what is measured.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC|OPENAI|CTXLOOP)_/.test(k)));
const reports: SizeReport[] = [];
for (const size of sizes) {
  const repo = await generateRepo(pool, work, size);
  const bytes = await sizeOf(repo.root);
  log(`bench:perf: ${size} files (${(bytes / 1e6).toFixed(0)} MB) at ${repo.root}`);
  const runs: TaskRun[] = [];
  const served = await startServed(bin, join(work, 'serve'), { cwd: work, env });
  const freshCache = (): string => {
    const dir = join(work, 'cache', `${size}-served`);
    rmSync(dir, { recursive: true, force: true });
    return dir;
  };
  const retrieveArgs = (task: string, cache: string): string[] => ['retrieve', '--root', repo.root, '--task', task, '--format', 'paths', '--provider', 'offline', '--cache', cache, '--quiet'];
  // Tasks of no dataset: the warm-up compiles the loop's code, and tells none of the tasks' files.
  // Two, the second of common words: one short task left the scan of a large output unoptimised,
  // and the first task after it ran about 0.6 s slower than the ones after (2.9 against 2.0–2.3 s).
  for (const warmUp of WARM_UP) checked(await served.run(retrieveArgs(warmUp, freshCache())), 'ctxloop (served warm-up)');
  for (const task of tasks) {
    const patterns = patternsOf(task.task);
    const rg = async (): Promise<Measured> => checked(await runMeasured(rgPath, ['--no-config', '--hidden', '-i', '-F', '-f', '-', '--', '.'], { cwd: repo.root, stdin: `${patterns.join('\n')}\n` }), 'rg', true);
    await rg(); // the first pass warms the page cache for everyone
    const rgMs = median(await sequence(Number(values['rg-runs']), async () => (await rg()).ms));
    const cache = join(work, 'cache', String(size));
    rmSync(cache, { recursive: true, force: true });
    const retrieve = retrieveArgs(task.task, cache);
    const cold = checked(await runNodeMeasured(bin, retrieve, { cwd: work, env }), 'ctxloop (cold)');
    const warm = checked(await runNodeMeasured(bin, retrieve, { cwd: work, env }), 'ctxloop (warm)');
    const kept = checked(await served.run(retrieveArgs(task.task, freshCache())), 'ctxloop (served)');
    runs.push({ task: task.id, rgMs, coldMs: cold.ms, warmMs: warm.ms, servedMs: kept.ms, coldRssMb: cold.rssMb ?? Number.NaN, warmRssMb: warm.rssMb ?? Number.NaN, servedRssMb: (await served.status()).peakRssMb });
    log(`  ${task.id}: rg ${(rgMs / 1000).toFixed(2)} s, cold ${(cold.ms / 1000).toFixed(2)} s, warm ${(warm.ms / 1000).toFixed(2)} s, served ${(kept.ms / 1000).toFixed(2)} s, peak ${Math.round(Math.max(cold.rssMb ?? 0, warm.rssMb ?? 0))} MB`);
  }
  // Every served command ran on the server, not in a process of its own after a failed connect.
  const ran = (await served.status()).served;
  if (ran !== tasks.length + WARM_UP.length) throw new Error(`the server ran ${ran} of the ${tasks.length + WARM_UP.length} commands sent to it`);
  await served.close();
  rmSync(join(work, 'cache', `${size}-served`), { recursive: true, force: true });
  reports.push({
    files: repo.files,
    bytes,
    tasks: runs.length,
    rgMs: median(runs.map((r) => r.rgMs)),
    coldMs: median(runs.map((r) => r.coldMs)),
    warmMs: median(runs.map((r) => r.warmMs)),
    servedMs: median(runs.map((r) => r.servedMs)),
    coldRatio: median(runs.map((r) => r.coldMs / r.rgMs)),
    warmRatio: median(runs.map((r) => r.warmMs / r.rgMs)),
    servedRatio: median(runs.map((r) => r.servedMs / r.rgMs)),
    coldP95Ms: percentile(runs.map((r) => r.coldMs), 0.95),
    warmP95Ms: percentile(runs.map((r) => r.warmMs), 0.95),
    servedP95Ms: percentile(runs.map((r) => r.servedMs), 0.95),
    servedPeakRssMb: Math.max(...runs.map((r) => r.servedRssMb)),
    peakRssMb: Math.max(...runs.flatMap((r) => [r.coldRssMb, r.warmRssMb]).filter((x) => !Number.isNaN(x))),
    runs,
  });
}

const slopes = {
  rg: fitLine(reports.map((r) => [r.files, r.rgMs])),
  cold: fitLine(reports.map((r) => [r.files, r.coldMs])),
  warm: fitLine(reports.map((r) => [r.files, r.warmMs])),
  served: fitLine(reports.map((r) => [r.files, r.servedMs])),
};
process.stdout.write(values.json ? `${JSON.stringify({ sizes: reports, slopes }, null, 2)}\n` : renderReport(reports, slopes));

/** The mirror folder name (`owner+name`) of a task's repository. */
function mirrorName(task: Task): string {
  return task.repo.replace('/', '+');
}

function pickTasks(dataset: readonly Task[], whole: ReadonlySet<string>, max: number): Task[] {
  const byRepo = new Map<string, Task[]>();
  for (const task of dataset) {
    if (!whole.has(mirrorName(task))) continue;
    byRepo.set(task.repo, [...(byRepo.get(task.repo) ?? []), task]);
  }
  // round-robin over the repositories, in a fixed order, so a few tasks still cover several
  const queues = [...byRepo.keys()].sort().map((repo) => byRepo.get(repo)!);
  const out: Task[] = [];
  while (out.length < max && queues.some((q) => q.length > 0)) for (const q of queues) if (q.length > 0 && out.length < max) out.push(q.shift()!);
  return out;
}

/** The fixed strings ctxloop's first search looks for: the plan's keywords (as searched), literals and symbols. */
function patternsOf(task: string): string[] {
  const plan = planQuery(task);
  const all = [...plan.keywords.map(searchPrefix), ...plan.literals, ...plan.symbols].filter((p) => p.trim() !== '' && !/[\r\n\0]/.test(p));
  return [...new Map(all.map((p) => [p.toLowerCase(), p])).values()];
}

async function sequence<T>(n: number, run: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < Math.max(1, n); i++) out.push(await run());
  return out;
}

function checked(measured: Measured, what: string, noMatchOk = false): Measured {
  if (measured.code === 0 || (noMatchOk && measured.code === 1)) return measured;
  throw new Error(`${what} exited ${String(measured.code)}: ${measured.stderr.trim().split('\n').slice(-3).join(' | ')}`);
}
