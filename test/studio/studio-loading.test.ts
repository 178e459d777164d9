/**
 * The studio loads only for its command: nothing of src/studio (or preact) is reachable by
 * static imports from the package's entries or from the binary's start (`--version`, other
 * commands), only through the dynamic import of `switchboard studio`.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Static imports only (`import … from`, `export … from`), not `import()`. */
function staticImports(file: string): { local: string[]; packages: string[] } {
  const text = readFileSync(file, 'utf8');
  const local: string[] = [];
  const packages: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*'([^']+)'/gms)) {
    const spec = m[1]!;
    if (spec.startsWith('.')) local.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
    else packages.push(spec);
  }
  return { local, packages };
}

function reachable(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const found = staticImports(file);
    for (const p of found.packages) packages.add(p);
    todo.push(...found.local);
  }
  return { files, packages };
}

describe('the studio loads only for its command', () => {
  const entries = [
    'index.ts',
    'testing.ts',
    'cli/main.ts',
    'entries/serve.ts',
    'entries/handlers.ts',
    'entries/import.ts',
    'entries/realtime.ts',
    'entries/redis.ts',
    'entries/transform.ts',
  ];
  for (const entry of entries)
    it(`src/${entry} reaches no studio module`, () => {
      const { files, packages } = reachable(resolve(SRC, entry));
      const studio = [...files].map((f) => relative(SRC, f)).filter((f) => f.startsWith('studio/'));
      expect(studio).toEqual([]);
      expect([...packages].filter((p) => p.startsWith('preact'))).toEqual([]);
    });

  it('the command reaches it (so the check above sees real imports)', () => {
    const { files } = reachable(resolve(SRC, 'cli/commands/studio.ts'));
    expect([...files].some((f) => relative(SRC, f) === 'studio/studio-server.ts')).toBe(true);
  });
});
