/**
 * Which test files may share a worker's modules (vitest.config.ts's `shared` project) and which
 * run each in a fresh process (the `isolated` project).
 *
 * Importing switchboard's modules is most of a test file's cost: vitest loads them again for
 * every file it isolates (about 0.4 s a file on a quiet 2-core machine, ~100 s of the run). Files
 * that do not touch process-wide state can load them once per worker instead. Two things decide:
 *
 * - the directory ({@link SHARED_DIRS}): its tests call the engine in-process, or spawn children,
 *   and start no server or client that a file leaves behind for the next; each directory was run
 *   isolated and shared three times, all green, before it was listed;
 * - the file, with the test helpers it imports: any {@link HAZARDS} mark keeps it isolated. Each
 *   names a kind of state that outlives a file inside one process.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Directories under test/ whose files share modules unless a hazard keeps one isolated. */
export const SHARED_DIRS: readonly string[] = [
  'adapters',
  'definition',
  'handlers',
  'harness',
  'import',
  'mcp',
  'models',
  'realtime',
  'reliability',
  'session',
  'symphony',
  'transform',
  'workflow',
];

/** What keeps a file isolated, and why: each pattern's state survives into the next file. */
export const HAZARDS: readonly { readonly pattern: RegExp; readonly why: string }[] = [
  {
    // Action deadlines share one timer per duration, process-wide
    // (src/handlers/endpoint/duration-queue.ts): a queue armed on real timers by an earlier file
    // never fires under this file's fake ones (test/session/symphony-config.test.ts hung).
    pattern: /useFakeTimers|setSystemTime/,
    why: 'fake timers or clock',
  },
  {
    // Engine warnings are shown once per process (src/option-checks.ts's warnOnce): a file that
    // expects one would miss it when an earlier file showed the same text.
    pattern: /emitWarning|process\.(on|once)\(\s*'warning'/,
    why: 'process warnings',
  },
  {
    // @fast-check/poisoning snapshots every global when first imported and restores them on a
    // failure: in a shared worker, globals that other files' lazily loaded modules add (openai's
    // provider symbol, Node's FormData) read as pollution, and a restore undid them for every
    // later file (80 files failed after test/reliability/pollution.test.ts's self-check).
    pattern: /@fast-check\/poisoning/,
    why: 'global-state snapshots',
  },
  { pattern: /vi\.(do)?mock\(|vi\.stubGlobal|vi\.stubEnv/, why: 'module mocks or stubbed globals' },
  {
    pattern: /process\.env(\[[^\]]+\]|\.\w+)\s*=[^=]|delete process\.env/,
    why: 'environment writes',
  },
  { pattern: /process\.chdir|process\.exit|process\.exitCode/, why: 'process-wide exits or cwd' },
  { pattern: /setGlobal\w*\(/, why: 'global dispatcher or telemetry provider' },
  {
    // V8 flags (`--expose-gc` for a reachability check) are the whole process's, and a check of
    // what a full collection frees is best made where no other file's modules hold anything.
    pattern: /setFlagsFromString/,
    why: 'V8 flags',
  },
  {
    // The process's default pools (src/handlers/endpoint/connection-pools.ts): their count and
    // their closing are every session's.
    pattern: /\bconnectionPools\.\w/,
    why: 'the default connection pools',
  },
  {
    // Counted over the whole thread (or process): what earlier files left, or the other
    // worker's allocations, would count as this file's.
    pattern: /getActiveResourcesInfo|memoryUsage|_getActiveHandles/,
    why: 'process resource counts',
  },
];

const TEST_ROOT = `${resolve('test')}/`;

/** Relative imports (static, dynamic, bare) of a test source, resolved to files (`./x.js` is `./x.ts` on disk). */
function localImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)) {
    const spec = match[1] ?? '';
    const path = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    // Only test helpers: src/ modules are what is being shared, not a reason to isolate.
    if (path.startsWith(TEST_ROOT) && existsSync(path)) found.push(path);
  }
  return found;
}

/** The first hazard of `file` or of a test helper it imports (transitively), if any. */
export function hazardOf(file: string): string | undefined {
  const seen = new Set<string>();
  const queue = [resolve(file)];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    const text = readFileSync(next, 'utf8');
    const hazard = HAZARDS.find((h) => h.pattern.test(text));
    if (hazard !== undefined) return `${relative(process.cwd(), next)}: ${hazard.why}`;
    queue.push(...localImports(next, text));
  }
  return undefined;
}

function testFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(dir, f).split('\\').join('/'))
    .sort();
}

/** The test files (relative to `root`) of {@link SHARED_DIRS} that no hazard keeps isolated. */
export function sharedTestFiles(root = 'test'): string[] {
  return SHARED_DIRS.flatMap((dir) => testFiles(join(root, dir))).filter(
    (file) => hazardOf(file) === undefined,
  );
}
