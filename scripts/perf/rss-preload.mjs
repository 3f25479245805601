// Preloaded by bench:perf (node --import): writes the process's peak resident set size (kB) at exit.
import { writeFileSync } from 'node:fs';

const file = process.env.CTXLOOP_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
