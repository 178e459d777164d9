/**
 * What `import('switchboard')` loads (docs/architecture.md, "What loads when"): the heavy
 * dependencies load on first use, not with the main entry. Checked on the built package (dist/,
 * built by the global setup): its static import graph, and a fresh process's module cache before
 * and after each first use. Timing is left to `npm run bench` (bench/cold-start.bench.mjs).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = resolve(__dirname, '../../dist');

/** Packages the main entry may import when it loads: one small file, used by most definitions. */
const EAGER = ['mustache'];

/** Bare specifiers reached from `entry` through static imports and re-exports, as tsc emits them. */
function staticPackages(entry: string): string[] {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'|^import\s+'([^']+)'/gm,
    )) {
      const spec = (m[1] ?? m[2])!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  };
  visit(entry);
  return [...packages].sort();
}

/** Runs `steps` (module code, `sb` the main entry) in a fresh process; returns its JSON output. */
function inFreshProcess(steps: string): Record<string, string[]> {
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const loaded = () => [...new Set(Object.keys(require.cache).flatMap((file) => {
      const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/[^]*$/.exec(file.slice(file.lastIndexOf('node_modules/')));
      return m === null ? [] : [m[1]];
    }))].sort();
    const out = {};
    const sb = await import(${JSON.stringify(join(DIST, 'index.js'))});
    out.import = loaded();
    ${steps}
    process.stdout.write(JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Record<string, string[]>;
}

const HEAVY = ['undici', 'zod', 'ajv', 'yaml', 'jmespath', 're2js', '@opentelemetry/api'];

describe("what import('switchboard') loads", () => {
  it('statically imports no package but the small eager ones', () => {
    expect(staticPackages(join(DIST, 'index.js'))).toEqual(EAGER);
  });

  it('loads each heavy dependency on its first use, not at import', () => {
    const out = inFreshProcess(`
      sb.parseDocument('tools: []', 'tools.yaml');
      out.yaml = loaded();
      await sb.loadTools([{
        tool: { function: { name: 'look_up', parameters: { type: 'object', properties: {
          code: { type: 'string', pattern: '^[A-Z]+$' } } } } },
        endpoint: { url: 'https://api.example.com/codes', method: 'get' },
        options: { save: [{ from: 'id', to: 'code_id' }] },
      }]);
      out.load = loaded();
      // What an endpoint handler's first call does (the pools module is the one sb loaded).
      const pools = await import(${JSON.stringify(join(DIST, 'handlers/endpoint/connection-pools.js'))});
      pools.poolFor(sb.connectionPools, { policy: {}, maxHeaderBytes: 16384 });
      out.pool = loaded();`);
    expect(out['import']!.filter((p) => HEAVY.includes(p))).toEqual([]);
    expect(out['yaml']).toContain('yaml');
    expect(out['yaml']).not.toContain('zod');
    for (const p of ['zod', 'ajv', 'jmespath', 're2js']) expect(out['load']).toContain(p);
    expect(out['load']).not.toContain('undici');
    expect(out['pool']).toContain('undici');
  });
});
