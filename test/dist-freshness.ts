/**
 * Whether the global setup may skip `npm run build`: dist/ is already built from the current
 * sources (`npm ci` builds it through the package's preprepare script, and so does a manual
 * `npm run build`).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the build reads: its sources, its configuration, and the compilers' versions (the lock). */
export const BUILD_INPUTS = [
  'src',
  'studio-ui',
  'scripts/build-studio.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];
/** One output of each build step (tsc, the studio bundle); each step rewrites its outputs. */
export const BUILD_OUTPUTS = [
  'dist/index.js',
  'dist/index.d.ts',
  'dist/cli/main.js',
  'dist/studio/ui/app.js',
];

/**
 * Whether dist/ was built after the last change to anything the build reads, so building again
 * would write the same files (a second build was about a tenth of `npm test` after `npm ci`).
 * Every build step rewrites all its outputs, so the oldest output is no older than the build's
 * start; an input changed since (an edit, a checkout, a pull) is newer. Directories count by their
 * own time too, which a file added, removed or renamed in them changes.
 */
export function distIsFresh(root = '.'): boolean {
  let built = Infinity;
  for (const output of BUILD_OUTPUTS) {
    const path = join(root, output);
    if (!existsSync(path)) return false;
    built = Math.min(built, statSync(path).mtimeMs);
  }
  const newest = (path: string): number => {
    if (!existsSync(path)) return Infinity;
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs;
    let time = stat.mtimeMs;
    for (const entry of readdirSync(path)) time = Math.max(time, newest(join(path, entry)));
    return time;
  };
  return BUILD_INPUTS.every((input) => newest(join(root, input)) < built);
}
