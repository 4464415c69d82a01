import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on a 2-core machine (CI's) that is one
    // file at a time, while most end-to-end files wait on the processes and servers they start.
    // Two workers there: the whole suite in 513 s instead of about 800 (bench: .ci/run's phases).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
