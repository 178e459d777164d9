/** Builds dist/ once per test file run (the e2e tests spawn the real binary). */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';

let built = false;

/** Compiles the package with tsc (once per process). */
export function buildOnce(): void {
  if (built && existsSync('dist/cli/main.js')) return;
  try {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'pipe' });
  } catch (error) {
    // tsc still emits on type errors (possibly in another area's work in progress).
    if (!existsSync('dist/cli/main.js')) throw error;
  }
  built = true;
}

/** Runs `switchboard …` as a user would. */
export function cli(args: readonly string[], options: { input?: string; env?: Record<string, string> } = {}): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['dist/cli/main.js', ...args], {
    encoding: 'utf8',
    input: options.input ?? '',
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...options.env },
    timeout: 30_000,
  });
}
