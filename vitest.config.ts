import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Most tests wait on child processes (rg, the CLI, stub servers), so one test file a core leaves
// cores idle: vitest's default (one worker fewer than the cores) ran a 2-core machine's suite on
// a single worker in 5.5 min; two workers run it in 3.4.
const workers = Math.max(2, availableParallelism() - 1);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: workers,
    minWorkers: workers,
  },
});
