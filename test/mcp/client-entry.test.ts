/**
 * The MCP SDK loads only with `switchboard/mcp` (docs/architecture.md, "Package entries"): no
 * module the main entry reaches, statically or by `import()`, imports it.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm,
    ))
      todo.push(resolve(dirname(file), m[1]!).replace(/\.js$/, '.ts'));
  }
  return seen;
}

const importsSdk = (file: string): boolean =>
  /['"]@modelcontextprotocol\/sdk/.test(readFileSync(file, 'utf8'));

describe('switchboard/mcp entry', () => {
  it('the main entry never reaches the MCP SDK; the mcp entry does', () => {
    const main = [...reachable(resolve(SRC, 'index.ts'))];
    expect(main.filter(importsSdk)).toEqual([]);
    expect([...reachable(resolve(SRC, 'entries/mcp.ts'))].some(importsSdk)).toBe(true);
  });
});
