/** Helpers of the end-to-end tests, which spawn the real binary. */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';

/** dist/ is built once by test/global-setup.ts; this only checks it is there. */
export function buildOnce(): void {
  if (!existsSync('dist/cli/main.js'))
    throw new Error('dist/cli/main.js is missing: the global setup did not build');
}

/** Runs `switchboard …` as a user would. */
export function cli(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string> } = {},
): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, ['dist/cli/main.js', ...args], {
    encoding: 'utf8',
    input: options.input ?? '',
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...options.env },
    timeout: 30_000,
  });
}

/** Like {@link cli}, without blocking this process (a test server in it must keep answering). */
export function cliAsync(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['dist/cli/main.js', ...args], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
