/**
 * The layer rule of docs/architecture.md, held on the code: every import in src/ goes to the
 * same folder or to a lower layer, and no file imports itself back through others (no cycle,
 * type-only imports included).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Layers from the bottom up; a folder (or a file at src/'s top) may import only from its own
 * folder and from layers below its own. */
export const LAYERS: readonly (readonly string[])[] = [
  [
    'errors.ts',
    'small-arrays.ts',
    'did-you-mean.ts',
    'own-data.ts',
    'http-guard.ts',
    'json-depth.ts',
    'json-error-position.ts',
    'lazy-deps.ts',
    'zod-keys.ts',
  ],
  ['option-checks.ts', 'zod-union.ts'],
  // A server's limit options are checked with option-checks' bounds.
  ['http-limits.ts'],
  ['models', 'expressions'],
  ['transform'],
  ['definition'],
  ['handlers'],
  ['observability'],
  ['session'],
  ['call-runner'],
  ['agent-format', 'realtime', 'redis', 'import', 'mcp', 'symphony', 'adapters'],
  ['harness', 'serve'],
  ['studio'],
  ['cli'],
  ['index.ts', 'testing.ts', 'entries'],
];

const SRC = resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** Relative imports of a file (static, type-only, re-exports and dynamic), as absolute paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm,
  )) {
    out.push(resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'));
  }
  return out;
}

/** The unit a file belongs to: its top folder under src/, or its own name at the top. */
const unitOf = (file: string): string => relative(SRC, file).split('/')[0]!;

function layerOf(unit: string): number {
  const i = LAYERS.findIndex((layer) => layer.includes(unit));
  if (i < 0)
    throw new Error(`src/${unit} is in no layer: add it to LAYERS and docs/architecture.md`);
  return i;
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe('layers (docs/architecture.md)', () => {
  it('every folder of src/ has a layer', () => {
    for (const f of files) expect(() => layerOf(unitOf(f))).not.toThrow();
  });

  it('imports go to the same folder or down, never up or sideways', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      const from = unitOf(file);
      for (const target of targets) {
        const to = unitOf(target);
        if (to === from) continue;
        if (layerOf(to) >= layerOf(from))
          wrong.push(`${relative(SRC, file)} -> ${relative(SRC, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has no import cycle between files', () => {
    // Tarjan's strongly connected components, iterative over an explicit stack.
    let next = 0;
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const onStack = new Set<string>();
    const stack: string[] = [];
    const cycles: string[][] = [];
    for (const root of graph.keys()) {
      if (index.has(root)) continue;
      const work: [string, number][] = [[root, 0]];
      while (work.length > 0) {
        const top = work[work.length - 1]!;
        const [node, i] = top;
        if (i === 0) {
          index.set(node, next);
          low.set(node, next++);
          stack.push(node);
          onStack.add(node);
        }
        const targets = (graph.get(node) ?? []).filter((t) => graph.has(t));
        if (i < targets.length) {
          top[1]++;
          const t = targets[i]!;
          if (!index.has(t)) work.push([t, 0]);
          else if (onStack.has(t)) low.set(node, Math.min(low.get(node)!, index.get(t)!));
          continue;
        }
        work.pop();
        const parent = work[work.length - 1];
        if (parent !== undefined) low.set(parent[0], Math.min(low.get(parent[0])!, low.get(node)!));
        if (low.get(node) === index.get(node)) {
          const component: string[] = [];
          let member: string;
          do {
            member = stack.pop()!;
            onStack.delete(member);
            component.push(relative(SRC, member));
          } while (member !== node);
          if (component.length > 1) cycles.push(component);
        }
      }
    }
    expect(cycles).toEqual([]);
  });
});
