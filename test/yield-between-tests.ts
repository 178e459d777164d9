/**
 * Setup file of every test file: after each test, one turn of the event loop.
 *
 * vitest's worker reports progress to the main process over an RPC that gives up after 60 s
 * (fixed in vitest 3, not configurable). Its answers are read only when the worker's event loop
 * polls; between synchronous tests the runner chains promises and never polls, so a file of
 * synchronous tests (the CLI tests wait for each child with spawnSync) that together take more
 * than 60 s on a loaded machine failed the run with `Timeout calling "onTaskUpdate"` although
 * every test passed. `setImmediate` runs after the poll phase: every pending answer is read
 * between any two tests, so only a single test longer than 60 s could still do that.
 */
import { afterEach } from 'vitest';

// Taken before any test can install fake timers (which replace the global `setImmediate` and
// would leave this hook waiting forever after a test that forgot `vi.useRealTimers()`).
const realSetImmediate = globalThis.setImmediate;

afterEach(() => new Promise<void>((resolve) => realSetImmediate(resolve)));
