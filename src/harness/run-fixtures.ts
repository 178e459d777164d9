/**
 * Finds fixtures under files and folders and runs them one after another.
 *
 * A file named explicitly is always a fixture. Inside a folder (searched recursively), a `.yaml`,
 * `.yml` or `.json` file is a fixture when its top level is an object with a `turns` key, so tool
 * sets living next to fixtures are skipped; names starting with `.` or `_` are skipped too.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { parseDocument } from '../definition/load.js';
import { checkRunFixturesOptions } from './check-run-options.js';
import { summarize, type FixtureResult, type RunSummary } from './fixture-result.js';
import type { FixtureTransportName } from './fixture-transport.js';
import { runFixture, type FixtureObserver } from './run-fixture.js';

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/** What discovery found: fixture files, and paths that do not exist. */
export interface Discovery {
  readonly files: readonly string[];
  readonly missing: readonly string[];
}

/** Options of {@link discoverFixtures}. */
export interface DiscoverOptions {
  readonly paths: readonly string[];
}

/** Lists fixture files under the given paths, in a stable (sorted) order. */
export async function discoverFixtures(options: DiscoverOptions): Promise<Discovery> {
  const files: string[] = [];
  const missing: string[] = [];
  for (const path of options.paths) {
    let info;
    try {
      info = await stat(path);
    } catch {
      missing.push(path);
      continue;
    }
    if (info.isDirectory()) files.push(...(await walk(path)));
    else files.push(path);
  }
  return { files: [...new Set(files)], missing };
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name.startsWith('_') || entry.name === 'node_modules')
      continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else if (
      entry.isFile() &&
      EXTENSIONS.has(extname(entry.name).toLowerCase()) &&
      (await looksLikeFixture(path))
    )
      out.push(path);
  }
  return out;
}

async function looksLikeFixture(path: string): Promise<boolean> {
  try {
    const value = parseDocument(await readFile(path, 'utf8'), path);
    return (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.hasOwn(value, 'turns')
    );
  } catch {
    // Unparsable files in a fixture folder are reported, not skipped silently.
    return true;
  }
}

/** Options of {@link runFixtures}. */
export interface RunFixturesOptions {
  /** Files and folders. */
  readonly paths: readonly string[];
  readonly observer?: FixtureObserver;
  /** `realtime`: every fixture runs through the Realtime transport. Default `text`. */
  readonly transport?: FixtureTransportName;
  /** Called after each fixture (progress output). */
  readonly onResult?: (result: FixtureResult) => void;
}

/** Runs every fixture found; a missing path is an `error` result of its own. */
export async function runFixtures(options: RunFixturesOptions): Promise<RunSummary> {
  // From JavaScript, runFixtures(['a.yaml']) would fail deep inside as "not iterable".
  if (Array.isArray(options))
    throw new TypeError(
      'runFixtures: expected { paths: [files or folders] }, got a list: write runFixtures({ paths: [...] })',
    );
  checkRunFixturesOptions(options);
  const started = performance.now();
  const { files, missing } = await discoverFixtures({ paths: options.paths });
  const results: FixtureResult[] = missing.map((file) => ({
    file,
    name: file,
    status: 'error',
    durationMs: 0,
    failures: [],
    issues: [
      { code: 'missing', severity: 'error', path: '', message: 'no such file or directory', file },
    ],
    turns: [],
  }));
  for (const r of results) options.onResult?.(r);
  for (const file of files) {
    const result = await runFixture(file, {
      ...(options.observer !== undefined ? { observer: options.observer } : {}),
      ...(options.transport !== undefined ? { transport: options.transport } : {}),
    });
    results.push(result);
    options.onResult?.(result);
  }
  return summarize(results, performance.now() - started);
}
