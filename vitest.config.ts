import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // One event-loop turn after each test, so the worker reads vitest's RPC answers between
    // synchronous tests (the file says why a loaded machine needed it).
    setupFiles: ['test/yield-between-tests.ts'],
    // Timeouts catch a hung test, not a slow machine: on a loaded 2-core machine a test that
    // spawns the CLI a dozen times took 24 s (quiet: 3 s), so the bound is far above that.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Child processes, not threads: tests spawn the CLI and servers, and a crash stays contained.
    pool: 'forks',
    // vitest's default is one worker per core but one; on 2 cores that is a single worker, which
    // leaves a core idle while tests wait on child processes, servers and Redis (most of them
    // do). Two workers keep both cores busy; a test must not depend on wall-clock speed, so the
    // extra contention on a loaded machine makes the run longer, never wrong.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
  },
});
