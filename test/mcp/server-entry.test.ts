/**
 * The MCP SDK loads only with `switchboard/mcp` (or `switchboard mcp`): no module the main entry
 * reaches, statically or through a dynamic import, names it.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Every src/ file `entry` reaches through relative imports, and the packages each names. */
function reach(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const work = [entry];
  while (work.length > 0) {
    const file = work.pop()!;
    if (seen.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    const packages: string[] = [];
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'([^']+)'/gm)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) work.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
      else packages.push(spec);
    }
    seen.set(file, packages);
  }
  return seen;
}

const sdkUsers = (entry: string): string[] =>
  [...reach(resolve(SRC, entry))]
    .filter(([, packages]) => packages.some((p) => p.startsWith('@modelcontextprotocol/')))
    .map(([file]) => relative(SRC, file));

describe('the MCP SDK stays out of the main entry', () => {
  it('is reached from switchboard/mcp', () => {
    expect(sdkUsers('entries/mcp.ts').length).toBeGreaterThan(0);
  });

  it('is not reached from switchboard or switchboard/testing', () => {
    expect(sdkUsers('index.ts')).toEqual([]);
    expect(sdkUsers('testing.ts')).toEqual([]);
  });
});
