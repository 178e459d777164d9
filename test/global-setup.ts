/**
 * Builds dist/ once before any test file runs: the end-to-end tests spawn the real binary, and
 * building from several test processes at once would race on the same output files.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export default function setup(): void {
  try {
    execFileSync(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
      { stdio: 'pipe' },
    );
  } catch (error) {
    // tsc still emits on type errors; `npm test` type-checks separately and fails on them.
    if (!existsSync('dist/cli/main.js')) throw error;
  }
}
