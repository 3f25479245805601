/**
 * Dumps, for every task of an eval dataset, the offline evaluator's features of every candidate
 * of the last cycle, with the gold label: the rows `fit-ranker.ts` fits and cross-validates on.
 *
 *   npx tsx scripts/dump-features.ts --dataset ../shared/bench/dev.jsonl --repos ../.mirror [--work DIR] > rows.jsonl
 */
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import envPaths from 'env-paths';
import type { EvalInput, Evaluator } from '../src/core/deps.js';
import { retrieve } from '../src/orchestrator/loop.js';
import { createOfflineEvaluator, rawScores } from '../src/evaluate/offline/index.js';
import { calibrate } from '../src/evaluate/offline/combine.js';
import { prepareCheckout } from '../src/eval/checkout.js';
import { readDataset } from '../src/eval/dataset.js';
import { languageOfTask } from '../src/eval/metrics.js';
import { featureVector } from './ranker-features.js';

const { values } = parseArgs({ options: { dataset: { type: 'string' }, repos: { type: 'string' }, work: { type: 'string' } } });
if (!values.dataset || !values.repos) {
  process.stderr.write('usage: dump-features.ts --dataset FILE --repos DIR [--work DIR]\n');
  process.exit(2);
}
const work = values.work ?? join(envPaths('ctxloop', { suffix: '' }).cache, 'eval');
const tasks = await readDataset(values.dataset);
for (const [n, task] of tasks.entries()) {
  const { root } = await prepareCheckout(values.repos, task.repo, task.base_commit, work);
  let last: EvalInput | undefined;
  let cycles = 0;
  const offline = createOfflineEvaluator();
  const recording: Evaluator = { ...offline, evaluate: (input, signal) => ((last = input), cycles++, offline.evaluate(input, signal)) };
  await retrieve(task.task, { root, provider: 'offline', cache: false }, { evaluator: recording });
  if (!last) continue;
  const { features, raws, definitions, neighbours, copies } = rawScores(last);
  const relevance = calibrate(raws, features);
  const gold = new Set(task.gold_files);
  const rows = last.candidates.map((c, i) => ({
    path: c.path,
    gold: gold.has(c.path) ? 1 : 0,
    raw: raws[i]!,
    relevance: relevance[i]!,
    x: featureVector({ features: features[i]!, definitions: definitions[i]!, neighbour: neighbours[i]!, copy: copies.has(i) }),
  }));
  process.stdout.write(`${JSON.stringify({ id: task.id, cycles, candidates: last.candidates.length, repo: task.repo, language: languageOfTask(task), gold: task.gold_files, rows })}\n`);
  process.stderr.write(`\r${n + 1}/${tasks.length} ${task.id}        `);
}
process.stderr.write('\n');
