// switchboard/symphony is an entry of its own: the main entry never reaches it, and the built
// entry loads by import and by require.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');
const inSymphony = (f: string): boolean => relative(SRC, f).startsWith('symphony/');

/** Every file reachable from `file` by static, type-only, re-exported or dynamic relative imports. */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm))
    reachable(resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'), seen);
  return seen;
}

describe('switchboard/symphony', () => {
  it("import('switchboard') never loads it", () => {
    const files = [...reachable(resolve(SRC, 'index.ts'))];
    expect(files.filter(inSymphony)).toEqual([]);
    expect([...reachable(resolve(SRC, 'entries/symphony.ts'))].some(inSymphony)).toBe(true);
  });

  it('the built entry loads by require and by import', async () => {
    const built = resolve(__dirname, '../../dist/entries/symphony.js');
    const required = createRequire(__filename)(built) as Record<string, unknown>;
    const imported = (await import(built)) as Record<string, unknown>;
    for (const mod of [required, imported]) {
      expect(typeof mod['loadSymphony']).toBe('function');
      expect(typeof mod['createSymphony']).toBe('function');
    }
  });
});
