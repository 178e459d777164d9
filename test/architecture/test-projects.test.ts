/**
 * test/projects.ts decides which test files share a worker's modules: a file that changes state
 * outliving it in the process must stay isolated, and no test file may fall out of both projects.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HAZARDS, SHARED_DIRS, hazardOf, sharedTestFiles } from '../projects.js';
import config from '../../vitest.config.js';

// Under test/ so its helpers count as test helpers; removed after the file.
const dir = mkdtempSync(join('test', '.projects-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const MARKS: readonly [string, string][] = [
  ['vi.useFakeTimers();', 'fake timers or clock'],
  ["vi.useFakeTimers({ toFake: ['performance'] });", 'fake timers or clock'],
  ['vi.setSystemTime(0);', 'fake timers or clock'],
  ["vi.spyOn(process, 'emitWarning');", 'process warnings'],
  ["process.on('warning', seen);", 'process warnings'],
  ["process.once( 'warning', seen);", 'process warnings'],
  ["vi.mock('../../src/x.js');", 'module mocks or stubbed globals'],
  ["vi.stubEnv('TZ', 'UTC');", 'module mocks or stubbed globals'],
  ["process.env['TZ'] = 'UTC';", 'environment writes'],
  ['delete process.env.TZ;', 'environment writes'],
  ["process.chdir('/');", 'process-wide exits or cwd'],
  ['trace.setGlobalTracerProvider(provider);', 'global dispatcher or telemetry provider'],
  ['await connectionPools.closeAll();', 'the default connection pools'],
  ["import { assertNoPoisoning } from '@fast-check/poisoning';", 'global-state snapshots'],
  ["process.getActiveResourcesInfo().filter((r) => r === 'Timeout');", 'process resource counts'],
  ['const before = process.memoryUsage().rss;', 'process resource counts'],
  ["setFlagsFromString('--expose-gc');", 'V8 flags'],
];

describe('a test file that changes process-wide state stays isolated', () => {
  it.each(MARKS)('%s → %s', (line, why) => {
    const file = write('marked.test.ts', `import { vi } from 'vitest';\n${line}\n`);
    expect(hazardOf(file)).toBe(`${relative(process.cwd(), file)}: ${why}`);
  });

  it('also when the change is made by a test helper it imports, however deep', () => {
    write('deep.ts', 'export const install = () => vi.useFakeTimers();\n');
    write('helper.ts', "export const deep = () => import('./deep.js');\n");
    const file = write('uses-helper.test.ts', "import { install } from './helper.js';\n");
    expect(hazardOf(file)).toBe(
      `${relative(process.cwd(), join(dir, 'deep.ts'))}: fake timers or clock`,
    );
  });

  it('reads the environment, spies and compares without being held back', () => {
    const file = write(
      'plain.test.ts',
      [
        "const runs = Number(process.env['RUNS'] ?? 3);",
        "if (process.env.CI === 'true') void runs;",
        "vi.spyOn(console, 'log');",
        "import { loadTools } from '../../src/definition/load.js';",
      ].join('\n'),
    );
    expect(hazardOf(file)).toBeUndefined();
  });

  it('the files found today: an action deadline under fake timers, warnings shown once, pollution guards', () => {
    expect(hazardOf('test/session/symphony-config.test.ts')).toMatch(/fake timers/);
    expect(hazardOf('test/workflow/budget.test.ts')).toMatch(
      /^test\/workflow\/expression-helpers\.ts: fake timers/,
    );
    expect(hazardOf('test/session/host-config.test.ts')).toMatch(/process warnings/);
    expect(hazardOf('test/reliability/pollution.test.ts')).toMatch(/global-state snapshots/);
    expect(hazardOf('test/transform/properties.test.ts')).toMatch(/global-state snapshots/);
    expect(sharedTestFiles()).not.toContain('test/session/symphony-config.test.ts');
  });

  it('every hazard says why', () => {
    for (const hazard of HAZARDS) expect(hazard.why).not.toBe('');
  });
});

describe('the two projects', () => {
  const projects = (config.test?.projects ?? []) as {
    test: { name: string; include: string[]; exclude?: string[] };
  }[];
  const byName = new Map(projects.map((p) => [p.test.name, p.test]));

  it('shared holds only files of the listed directories, isolated everything else', () => {
    const shared = sharedTestFiles();
    expect(shared.length).toBeGreaterThan(0);
    for (const file of shared)
      expect(
        SHARED_DIRS.some((d) => file.startsWith(`test/${d}/`)),
        file,
      ).toBe(true);
    expect(byName.get('shared')?.include).toEqual(shared);
    expect(byName.get('isolated')?.include).toEqual(['test/**/*.test.ts']);
    expect(byName.get('isolated')?.exclude).toEqual(expect.arrayContaining(shared));
  });

  it('a file of a listed directory not shared is run isolated (none is left out)', () => {
    const shared = new Set(sharedTestFiles());
    const all = SHARED_DIRS.flatMap((d) =>
      readdirSync(join('test', d), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => `test/${d}/${f}`),
    );
    const isolated = all.filter((f) => !shared.has(f));
    expect(isolated.length + shared.size).toBe(all.length);
    for (const file of isolated) expect(hazardOf(file), file).toBeDefined();
  });
});
