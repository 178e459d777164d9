/**
 * Builds dist/ once before any test file runs: the end-to-end tests spawn the real binary, and
 * building from several test processes at once would race on the same output files. A dist/
 * already built from the current sources (`npm ci` builds it, as does `npm run build`) is used
 * as it is: see {@link distIsFresh}.
 *
 * Also provides a Redis to the tests as `inject('redisUrl')`: REDIS_URL when set, else a
 * redis-server started here on loopback (free port, no persistence) and stopped at the end.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { distIsFresh } from './dist-freshness.js';
import { startRedisServer } from './redis-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!distIsFresh()) {
    try {
      // The package's own build script (tsc, then the binary made executable), as `npm ci` runs it.
      execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'pipe' });
    } catch (error) {
      // tsc still emits on type errors; `npm test` type-checks separately and fails on them.
      if (!existsSync('dist/cli/main.js')) throw error;
    }
  }
  const given = process.env['REDIS_URL'];
  if (given !== undefined && given !== '') {
    project.provide('redisUrl', given);
    return async () => undefined;
  }
  const redis = await startRedisServer();
  project.provide('redisUrl', redis.url);
  return () => redis.stop();
}
