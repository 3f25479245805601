/**
 * Preflight: gather context for a task through the library before an agent starts.
 * Run from the repository root after `npm install`:
 *   npx tsx examples/preflight.ts "how are stack-trace frames mapped to files?" [root]
 */
import { createRetriever, isCtxloopError } from 'ctxloop';

const task = process.argv[2] ?? "how are stack-trace frames mapped to files?";
const root = process.argv[3] ?? process.cwd();

const retriever = createRetriever({ root, budget: 4000, provider: 'offline' });
try {
  const result = await retriever.retrieve(task, {
    onProgress: (event) => {
      if (event.type === 'evaluate') process.stderr.write(`cycle ${event.cycle}: ${event.scored} scored, ${event.kept} kept\n`);
    },
  });
  console.log(`Task: ${result.task}`);
  for (const file of result.files) {
    const regions = file.regions.map((r) => `${r.start}-${r.end}${r.symbol ? ` ${r.symbol}` : ''}`).join(', ');
    console.log(`  ${file.score.toFixed(2)}  ${file.path}  [${regions}]  ${file.reason}`);
  }
  if (result.files.length === 0) console.log('  (no file reached the threshold; best candidates below)');
  for (const c of result.candidates.slice(0, 3)) console.log(`  ${c.score.toFixed(2)}  ${c.path} (candidate)`);
  for (const gap of result.gaps) console.log(`  gap: ${gap}`);
  console.log(`${result.tokens} tokens in ${result.cycles.length} cycle(s), provider ${result.provider}`);
} catch (error) {
  console.error(isCtxloopError(error) ? `preflight: ${error.message}` : error);
  process.exitCode = 1;
} finally {
  await retriever.close();
}
