import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { sharedTestFiles } from './test/projects.js';

/** Options of both projects (not `extends`: that would run the global setup once per project). */
const common = {
  // One event-loop turn after each test, so the worker reads vitest's RPC answers between
  // synchronous tests (the file says why a loaded machine needed it).
  setupFiles: ['test/yield-between-tests.ts'],
  // Timeouts catch a hung test, not a slow machine: on a loaded 2-core machine a test that
  // spawns the CLI a dozen times took 24 s (quiet: 3 s), so the bound is far above that.
  testTimeout: 120_000,
  hookTimeout: 120_000,
};

const shared = sharedTestFiles();

export default defineConfig({
  test: {
    // Once for the whole run; both projects inherit what it provides (the Redis URL).
    globalSetup: ['test/global-setup.ts'],
    // vitest's default is one worker per core but one; on 2 cores that is a single worker, which
    // leaves a core idle while tests wait on child processes, servers and Redis (most of them
    // do). Two workers keep both cores busy; a test must not depend on wall-clock speed, so the
    // extra contention on a loaded machine makes the run longer, never wrong.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    // The pool's isolation is set here, for the whole run: threads serve only `shared`.
    poolOptions: { threads: { isolate: false }, forks: { isolate: true } },
    projects: [
      {
        // Files that touch no process-wide state (test/projects.ts says which and why) load
        // switchboard's modules once per worker instead of once per file: most of a file's cost.
        test: {
          ...common,
          name: 'shared',
          include: shared,
          pool: 'threads',
          poolOptions: { threads: { isolate: false } },
          // Before `isolated`, not beside it: two pools at once would be four workers on 2 cores.
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...common,
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: [...shared, '**/node_modules/**'],
          // Child processes, not threads: tests spawn the CLI and servers, change process-wide
          // state (fake timers, warnings, telemetry), and a crash stays contained.
          pool: 'forks',
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
