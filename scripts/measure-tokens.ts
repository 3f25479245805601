/**
 * Model input tokens per cycle, per task and on a warm repeat, measured against the stub model
 * server of `test/helpers/stub-llm.ts` (it counts every prompt with o200k, as an API would).
 * The stub scores the task's gold files 0.9 and everything else 0.3, plans and refines with
 * empty suggestions, so the numbers are what ctxloop itself sends.
 *
 *   npx tsx scripts/measure-tokens.ts [--dataset ../shared/bench/dev.jsonl] [--work ~/.cache/ctxloop/eval]
 *                                     [--repos expressjs/express,axios/axios] [--json]
 *
 * Checkouts are moved to each task's base commit (`git checkout -f`): do not run an eval in the
 * same work dir meanwhile.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { retrieve } from '../src/orchestrator/loop.js';
import type { RetrieveOptions } from '../src/core/options.js';
import { autoReply, candidatePaths, startStubLlm, type RecordedRequest } from '../test/helpers/stub-llm.js';
import { createTokenizer } from '../src/pack/tokens.js';

interface Task {
  id: string;
  repo: string;
  base_commit: string;
  task: string;
  gold_files: string[];
}

const { values } = parseArgs({
  options: {
    dataset: { type: 'string', default: '../shared/bench/dev.jsonl' },
    work: { type: 'string', default: join(homedir(), '.cache/ctxloop/eval') },
    repos: { type: 'string', default: 'expressjs/express,axios/axios' },
    json: { type: 'boolean', default: false },
    /** Override the defaults, to compare settings. */
    'model-candidates': { type: 'string' },
    'batch-size': { type: 'string' },
  },
});

const repos = new Set(values.repos.split(','));
const tasks: Task[] = readFileSync(values.dataset, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line) as Task)
  .filter((t) => repos.has(t.repo));

const tokenizer = createTokenizer();
let gold = new Set<string>();
/** Which cycle the loop is in: a request belongs to the cycle whose dispatch preceded it (the plan to cycle 1). */
let cycle = 1;
const cycleOf = new Map<RecordedRequest, number>();
const judge = autoReply((path) => (gold.has(path) ? 0.9 : 0.3));
const stub = await startStubLlm((request) => {
  cycleOf.set(request, cycle);
  return judge(request);
});
const roleOf = (r: RecordedRequest): string => ({ report_scores: 'evaluate', report_query: r.prompt.includes('<scores>') ? 'refine' : 'plan', next_step: 'scout' })[r.schemaName ?? ''] ?? 'other';

interface Row {
  id: string;
  files: number;
  cycles: number[];
  byRole: Record<string, number>;
  total: number;
  warm: number;
  warmCalls: number;
  /** Gold files the model was shown, of all gold files. */
  goldJudged: number;
  gold: number;
}
const rows: Row[] = [];

try {
  for (const task of tasks) {
    const root = join(values.work, task.repo.replace('/', '+'));
    execFileSync('git', ['-C', root, 'checkout', '-f', '-q', '--detach', task.base_commit]);
    const files = Number(execFileSync('git', ['-C', root, 'ls-files'], { encoding: 'utf8' }).split('\n').filter(Boolean).length);
    gold = new Set(task.gold_files);
    const cache = mkdtempSync(join(tmpdir(), 'ctxloop-measure-'));
    const options: RetrieveOptions = {
      root,
      cache,
      env: { OPENAI_BASE_URL: stub.openaiURL, OPENAI_API_KEY: 'x' },
      ...(values['model-candidates'] ? { modelCandidates: Number(values['model-candidates']) } : {}),
      ...(values['batch-size'] ? { batchSize: Number(values['batch-size']) } : {}),
      onProgress: (event) => {
        if (event.type === 'dispatch') cycle = event.cycle;
      },
    };
    try {
      const before = stub.requests.length;
      cycle = 1;
      const cold = await retrieve(task.task, options);
      const sent = stub.requests.slice(before);
      const perCycle = Array.from({ length: cold.cycles.length }, () => 0);
      const byRole: Record<string, number> = {};
      for (const r of sent) {
        const n = tokenizer.count(r.prompt);
        perCycle[(cycleOf.get(r) ?? 1) - 1]! += n;
        byRole[roleOf(r)] = (byRole[roleOf(r)] ?? 0) + n;
      }
      const warmBefore = stub.requests.length;
      const warm = await retrieve(task.task, { ...options, onProgress: () => {} });
      const judged = new Set(sent.filter((r) => r.schemaName === 'report_scores').flatMap((r) => candidatePaths(r.prompt)));
      const goldJudged = task.gold_files.filter((f) => judged.has(f)).length;
      rows.push({ id: task.id, files, cycles: perCycle, byRole, total: cold.usage.inputTokens, warm: warm.usage.inputTokens, warmCalls: stub.requests.length - warmBefore, goldJudged, gold: task.gold_files.length });
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }
} finally {
  await stub.close();
}

if (values.json) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
  const stats = (xs: number[]): string => (xs.length === 0 ? '-' : `${fmt(xs.reduce((a, b) => a + b, 0) / xs.length)}  (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`);
  for (const row of rows) console.log(`${row.id.padEnd(24)} ${String(row.files).padStart(4)} files  cycles ${row.cycles.map(fmt).join(' + ')} = ${fmt(row.total)}  ${Object.entries(row.byRole).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}  gold judged ${row.goldJudged}/${row.gold}  warm ${row.warm} (${row.warmCalls} calls)`);
  const roles = [...new Set(rows.flatMap((r) => Object.keys(r.byRole)))];
  console.log('');
  console.log(`per cycle        ${stats(rows.flatMap((r) => r.cycles))}`);
  console.log(`cycle 1          ${stats(rows.map((r) => r.cycles[0] ?? 0))}`);
  console.log(`per task         ${stats(rows.map((r) => r.total))}`);
  for (const role of roles) console.log(`  ${role.padEnd(14)} ${stats(rows.map((r) => r.byRole[role] ?? 0))}`);
  console.log(`cycles per task  ${(rows.reduce((a, r) => a + r.cycles.length, 0) / rows.length).toFixed(1)}`);
  console.log(`gold judged      ${rows.reduce((a, r) => a + r.goldJudged, 0)}/${rows.reduce((a, r) => a + r.gold, 0)}`);
  console.log(`warm repeat      ${stats(rows.map((r) => r.warm))}, ${rows.reduce((a, r) => a + r.warmCalls, 0)} calls`);
}
