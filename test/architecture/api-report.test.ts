/**
 * The public API report (api/*.api.md, written by API Extractor) matches the built declarations:
 * a change to what an entry exports, or to a public signature, fails here until the report is
 * updated with `npm run api -- --update` and committed, so it shows in review. The same check
 * fails when an exported signature uses a type no entry exports (a user could not name it).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('the public API report', () => {
  it('api/ matches every entry of the built package', () => {
    const run = spawnSync(process.execPath, ['scripts/api-report.mjs'], { encoding: 'utf8' });
    expect(run.stderr + run.stdout).not.toMatch(/changed|error|no package entry/i);
    expect(run.status).toBe(0);
  });
});

describe('types a user cannot name', () => {
  // A two-entry package: `demo` and `demo/extra`, declarations only.
  const FILES: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'demo',
      exports: {
        '.': { types: './dist/index.d.ts', default: './dist/index.js' },
        './extra': { types: './dist/extra.d.ts', default: './dist/extra.js' },
        './package.json': './package.json',
      },
    }),
    'tsconfig.build.json': JSON.stringify({
      compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext' },
      files: ['dist/index.d.ts', 'dist/extra.d.ts'],
    }),
    'dist/shared.d.ts':
      'export interface Hidden { readonly a: number }\nexport interface Shared { readonly b: string }\n',
    'dist/other.d.ts': 'export interface Shared { readonly c: boolean }\n',
    'dist/index.d.ts': [
      "import type { Hidden, Shared } from './shared.js';",
      'export declare function useHidden(options: Hidden): void;',
      'export declare function useShared(options: Shared): void;',
      "export type { Shared } from './shared.js';",
    ].join('\n'),
    'dist/extra.d.ts': [
      "import type { Shared } from './shared.js';",
      "import type { Shared as Unexported } from './other.js';",
      '/** Shared is exported by the main entry: a user names it from there. */',
      'export declare function fromMain(value: Shared): void;',
      '/** Named like an exported type, but another declaration no entry exports. */',
      'export declare function sameName(value: Unexported): void;',
    ].join('\n'),
  };
  let root = '';
  let run: SpawnSyncReturns<string>;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'api-forgotten-'));
    for (const [file, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    mkdirSync(join(root, 'api'));
    run = spawnSync(process.execPath, ['scripts/api-report.mjs', '--root', root, '--update'], {
      encoding: 'utf8',
    });
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('an exported signature using a type no entry exports fails the check, naming entry and type', () => {
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('no package entry exports');
    expect(run.stderr).toContain('demo: Hidden (used by useHidden in dist/index.d.ts)');
    // The same name as an exported type does not make another declaration nameable.
    expect(run.stderr).toContain('demo/extra: Shared (used by sameName in dist/extra.d.ts)');
  });

  it('a type exported by another entry counts as named', () => {
    expect(run.stderr).not.toContain('fromMain');
    expect(run.stderr).not.toContain('useShared');
  });
});
