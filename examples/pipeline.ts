/**
 * A pipeline step: gather context for several subagents at once, each with its own task and
 * token budget, through one retriever (one cache, warm for every call). Prints what each got.
 * Run from the repository root after `npm install`:
 *   npx tsx examples/pipeline.ts [root] ["task of subagent 1" "task of subagent 2" …]
 * Without tasks, three subagents ask about ctxloop itself.
 */
import { createRetriever, isCtxloopError, type RetrieveResult } from 'ctxloop';

interface Subagent {
  name: string;
  task: string;
  /** Tokens of context this subagent can take: a small model or a narrow job gets less. */
  budget: number;
}

const root = process.argv[2] ?? process.cwd();
const tasks = process.argv.slice(3);
const budgets = [6000, 3000, 1500];
const subagents: Subagent[] =
  tasks.length > 0
    ? tasks.map((task, i) => ({ name: `subagent-${i + 1}`, task, budget: budgets[i % budgets.length]! }))
    : [
        { name: 'implementer', task: 'packFiles exceeds the token budget when a region is shrunk', budget: 6000 },
        { name: 'test-writer', task: 'how are stack-trace frames turned into path mentions by planQuery?', budget: 3000 },
        { name: 'reviewer', task: 'where does the CLI choose the exit code for a failed run?', budget: 1500 },
      ];

// One retriever for the whole pipeline: settings, role definitions and caches are shared, and
// concurrent calls are safe.
const retriever = createRetriever({ root, provider: 'offline' });
try {
  const results = await Promise.all(subagents.map((agent) => retriever.retrieve(agent.task, { budget: agent.budget, withContent: true })));
  subagents.forEach((agent, i) => printContext(agent, results[i]!));
  // What a subagent's prompt would start with: its task, then the packed regions.
  const first = results[0]!;
  const prompt = [`Task: ${first.task}`, ...first.files.flatMap((f) => f.regions.map((r) => `--- ${f.path}:${r.start}-${r.end}\n${r.content ?? ''}`))].join('\n');
  console.log(`\n${subagents[0]!.name}'s prompt would open with ${prompt.split('\n').length} lines of context.`);
} catch (error) {
  console.error(isCtxloopError(error) ? `pipeline: ${error.message}` : error);
  process.exitCode = 1;
} finally {
  await retriever.close();
}

function printContext(agent: Subagent, result: RetrieveResult): void {
  console.log(`${agent.name} (budget ${agent.budget}): ${result.files.length} ${result.files.length === 1 ? 'file' : 'files'}, ${result.tokens} tokens`);
  for (const file of result.files) {
    const regions = file.regions.map((r) => `${r.start}-${r.end}${r.symbol ? ` ${r.symbol}` : ''}`).join(', ');
    console.log(`  ${file.score.toFixed(2)}  ${file.path}  [${regions}]`);
  }
  if (result.files.length === 0) console.log(`  (nothing reached the threshold; best candidate: ${result.candidates[0]?.path ?? 'none'})`);
  for (const gap of result.gaps.slice(0, 2)) console.log(`  gap: ${gap}`);
}
