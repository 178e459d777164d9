/**
 * The tarball walk: switchboard as users get it. Packs the package once (dist/ is built by the
 * global setup, so `--ignore-scripts` skips prepack's second build), installs the tarball once
 * (with @types/node, which the page's TypeScript step adds), and uses that install from a fresh
 * CommonJS project and a fresh TypeScript project (`skipLibCheck: false`; its node_modules is a
 * link to the same tree: a second install of the same tarball was the walk's largest cost and
 * shows nothing the first does not). It writes docs/first-bot.md's files exactly as the page
 * shows them and runs its commands. The page's endpoint is the page's own stand-in server,
 * started here on a free loopback port.
 *
 * Installs use `--prefer-offline`: after `npm ci` the npm cache holds every dependency.
 * TypeScript is the repo's own compiler, never one installed from the registry.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, pageFiles, run, start, type Ran, type Running } from './walk.js';

const ROOT = process.cwd();
const PAGE = 'docs/first-bot.md';
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'];
/** npm and tsc on a loaded 2-core machine: minutes, not seconds. */
const SLOW = 300_000;

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
  name: string;
  scripts: Record<string, string>;
  exports: Record<string, unknown>;
};
const nodeTypes = (
  JSON.parse(readFileSync('node_modules/@types/node/package.json', 'utf8')) as { version: string }
).version;

let work = '';
let packed: { files: { path: string }[] } = { files: [] };
let clinic: Running | undefined;
let origin = '';
let install: Promise<Ran> = Promise.resolve({ status: 0, stdout: '', stderr: '' });
let typescript: Promise<Ran> = Promise.resolve({ status: 0, stdout: '', stderr: '' });

/** The page's files, with the stand-in server's fixed port replaced by the one it got. */
function writePage(dir: string): Map<string, string> {
  const files = pageFiles(PAGE);
  for (const [name, text] of files)
    writeFileSync(join(dir, name), text.replaceAll('http://127.0.0.1:8787', origin));
  return files;
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'switchboard-first-bot-'));
  const pack = ok(
    await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT),
    'npm pack',
  );
  packed = (JSON.parse(pack.stdout) as (typeof packed & { filename: string })[])[0] ?? packed;
  const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? 'missing.tgz');

  // The stand-in clinic API from the page, on a port of its own choosing (no race for 8787).
  const server = join(work, 'clinic');
  mkdirSync(server);
  const source = pageFiles(PAGE).get('clinic.mjs') ?? '';
  expect(source).toContain('server.listen(8787,');
  writeFileSync(
    join(server, 'clinic.mjs'),
    source.replace('server.listen(8787,', 'server.listen(0,'),
  );
  clinic = start(process.execPath, ['clinic.mjs'], server);
  origin = (await clinic.waitFor(/clinic API on (http:\/\/127\.0\.0\.1:\d+)$/))[1] ?? '';

  const cjs = join(work, 'cjs');
  const ts = join(work, 'ts');
  mkdirSync(cjs);
  mkdirSync(ts);
  // What `npm init -y` writes (npm ≥ 11 says "commonjs" outright), and `npm pkg set type=module`.
  writeFileSync(
    join(cjs, 'package.json'),
    '{ "name": "first-bot", "version": "1.0.0", "type": "commonjs" }\n',
  );
  writeFileSync(
    join(ts, 'package.json'),
    '{ "name": "first-bot-ts", "version": "1.0.0", "type": "module" }\n',
  );
  writePage(cjs);
  writePage(ts);
  // One install, used by both projects; the TypeScript compile starts as soon as it is done and
  // runs while the CommonJS cases do.
  install = run('npm', [...INSTALL, tarball, `@types/node@${nodeTypes}`], cjs);
  ok(await install, 'npm install');
  symlinkSync(join(cjs, 'node_modules'), join(ts, 'node_modules'), 'dir');
  typescript = run(process.execPath, [TSC, '-p', '.'], ts);
  typescript.catch(() => undefined);
}, SLOW);

afterAll(async () => {
  clinic?.child.kill();
  // Asynchronously: removing two node_modules trees takes a while on a loaded machine.
  if (work !== '') await rm(work, { recursive: true, force: true });
}, SLOW);

describe('the package as users install it', () => {
  it('builds in prepack, and runs nothing when installed (no prepare or install scripts)', () => {
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts[hook], `scripts.${hook}`).toBeUndefined();
    // A clean build: files of removed sources must not linger in dist/ and ship.
    expect(manifest.scripts['prepack']).toMatch(/^node -e .*rmSync\('dist'.* && npm run build$/);
  });

  it('exports every entry point to require() as well as import', () => {
    for (const [entry, conditions] of Object.entries(manifest.exports)) {
      if (typeof conditions === 'string') continue;
      expect(Object.keys(conditions as object), entry).toEqual(['types', 'default']);
    }
  });

  it(
    'installs without warnings about its scripts',
    async () => {
      expect((await install).stderr).not.toMatch(/install-scripts|prepare/);
    },
    SLOW,
  );

  it('ships no source maps (their sources are not shipped), and the first-bot page', () => {
    const paths = packed.files.map((f) => f.path);
    expect(paths).toContain('docs/first-bot.md');
    expect(paths).toContain('dist/index.d.ts');
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
    const index = readFileSync(join(work, 'cjs/node_modules/switchboard/dist/index.js'), 'utf8');
    expect(index).not.toContain('sourceMappingURL');
  });
});

describe('docs/first-bot.md, walked from the tarball', () => {
  const expected = (): string => pageFiles(PAGE).get('expected-output.txt') ?? '';

  it(
    'bot.mjs prints what the page says, booking through the stand-in API',
    async () => {
      const before = clinic?.lines.length ?? 0;
      const ran = ok(await run(process.execPath, ['bot.mjs'], join(work, 'cjs')), 'node bot.mjs');
      expect(ran.stdout).toBe(expected());
      expect(clinic?.lines.slice(before)).toEqual([
        'clinic: POST /appointments {"patient_name":"Ada Lovelace","date":"2026-12-01","channel":"phone"}',
      ]);
    },
    SLOW,
  );

  it(
    'bot.cjs: require() from a CommonJS project, same lines',
    async () => {
      const ran = ok(await run(process.execPath, ['bot.cjs'], join(work, 'cjs')), 'node bot.cjs');
      expect(ran.stdout).toBe(expected());
    },
    SLOW,
  );

  it(
    'the fixture passes with the installed switchboard binary',
    async () => {
      const bin = join(work, 'cjs/node_modules/.bin/switchboard');
      const ran = ok(
        await run(bin, ['test', 'first-bot.yaml'], join(work, 'cjs')),
        'switchboard test',
      );
      expect(ran.stdout).toContain('1 passed, 0 failed');
    },
    SLOW,
  );

  it(
    'bot.ts compiles with skipLibCheck: false and only switchboard’s dependencies (+ @types/node), and prints the same',
    async () => {
      const tsconfig = JSON.parse(readFileSync(join(work, 'ts/tsconfig.json'), 'utf8')) as {
        compilerOptions: Record<string, unknown>;
      };
      expect(tsconfig.compilerOptions['skipLibCheck']).toBe(false);
      ok(await typescript, 'tsc');
      const ran = ok(await run(process.execPath, ['bot.js'], join(work, 'ts')), 'node bot.js');
      expect(ran.stdout).toBe(expected());
    },
    SLOW,
  );
});
