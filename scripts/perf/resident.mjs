// Run by bench:perf as one long-lived process: the library's `retrieve()` as the MCP server and a
// pipeline call it, JIT-compiled code and loaded grammars kept from call to call. Each request
// (a JSON line on stdin: root, task, cache) gets a retriever of its own and an empty cache
// directory, so nothing found for one task is kept for the next; what it answers (a JSON line on
// stdout) is the wall time from the call to the caches written, the files found, and the
// process's peak RSS so far.
import { createInterface } from 'node:readline';
import { createRetriever } from '../../dist/index.js';

for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  const { root, task, cache } = JSON.parse(line);
  const started = performance.now();
  try {
    const retriever = createRetriever({ provider: 'offline', cache });
    const result = await retriever.retrieve(task, { root });
    await retriever.close();
    const ms = performance.now() - started;
    process.stdout.write(`${JSON.stringify({ ms, files: result.files.length, rssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: String(error?.message ?? error) })}\n`);
  }
}
