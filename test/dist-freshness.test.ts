/** The global setup's check that dist/ is already built from the current sources. */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_INPUTS, BUILD_OUTPUTS, distIsFresh } from './dist-freshness.js';

/** A project whose every input is dated `inputs` and every output `outputs` (seconds). */
function project(
  inputs: number,
  outputs: number,
): { root: string; date: (p: string, t: number) => void } {
  const root = mkdtempSync(join(tmpdir(), 'sb-dist-fresh-'));
  const date = (path: string, time: number): void => utimesSync(join(root, path), time, time);
  const file = (path: string, time: number): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), '');
    date(path, time);
  };
  for (const input of BUILD_INPUTS) {
    if (input.includes('.')) file(input, inputs);
    else {
      file(`${input}/a.ts`, inputs);
      date(input, inputs);
    }
  }
  for (const output of BUILD_OUTPUTS) file(output, outputs);
  for (const dir of ['dist/cli', 'dist/studio/ui', 'dist/studio', 'dist']) date(dir, outputs);
  return { root, date };
}

describe('dist/ freshness', () => {
  it('is fresh when every output is newer than every input', () => {
    expect(distIsFresh(project(1_000, 2_000).root)).toBe(true);
  });

  it('is stale when a source, the lock or a build config changed after the build', () => {
    for (const input of [
      'src/a.ts',
      'package-lock.json',
      'tsconfig.build.json',
      'studio-ui/a.ts',
    ]) {
      const { root, date } = project(1_000, 2_000);
      date(input, 3_000);
      expect(distIsFresh(root), input).toBe(false);
    }
  });

  it('is stale when a file was added to or removed from the sources (the directory changed)', () => {
    const { root, date } = project(1_000, 2_000);
    rmSync(join(root, 'src/a.ts'));
    date('src', 3_000);
    expect(distIsFresh(root)).toBe(false);
  });

  it('is stale when one build step is older than the inputs, or an output or input is missing', () => {
    const old = project(1_000, 2_000);
    old.date('dist/studio/ui/app.js', 500);
    expect(distIsFresh(old.root)).toBe(false);
    const noOutput = project(1_000, 2_000);
    rmSync(join(noOutput.root, 'dist/cli/main.js'));
    expect(distIsFresh(noOutput.root)).toBe(false);
    const noLock = project(1_000, 2_000);
    rmSync(join(noLock.root, 'package-lock.json'));
    expect(distIsFresh(noLock.root)).toBe(false);
    expect(distIsFresh(mkdtempSync(join(tmpdir(), 'sb-dist-none-')))).toBe(false);
  });
});
