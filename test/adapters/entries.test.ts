/**
 * Each framework loads only through its own entry: no module another entry reaches, statically or
 * through a dynamic import, names `ai`, `@openai/agents` or `@livekit/agents`; and each adapter
 * entry names only its own framework. The built entries resolve through the package's exports.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

const FRAMEWORKS: Record<string, (spec: string) => boolean> = {
  ai: (spec) => spec === 'ai' || spec.startsWith('ai/'),
  'openai-agents': (spec) => spec.startsWith('@openai/agents'),
  livekit: (spec) => spec.startsWith('@livekit/'),
};

/** The packages named by every src/ file `entry` reaches through relative imports. */
function packagesReached(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>();
  const work = [resolve(SRC, entry)];
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

function frameworksOf(entry: string): string[] {
  const found = new Set<string>();
  for (const packages of packagesReached(entry).values())
    for (const spec of packages)
      for (const [name, matches] of Object.entries(FRAMEWORKS)) if (matches(spec)) found.add(name);
  return [...found].sort();
}

describe('framework adapters load only through their own entries', () => {
  it('each adapter entry reaches its own framework and no other', () => {
    for (const name of Object.keys(FRAMEWORKS))
      expect(frameworksOf(`entries/${name}.ts`), name).toEqual([name]);
  });

  it('no other entry reaches a framework', () => {
    const others = [
      'index.ts',
      'testing.ts',
      ...readdirSync(resolve(SRC, 'entries'))
        .filter((f) => !Object.keys(FRAMEWORKS).includes(f.replace(/\.ts$/, '')))
        .map((f) => `entries/${f}`),
    ];
    for (const entry of others) expect(frameworksOf(entry), relative(SRC, entry)).toEqual([]);
  });

  it('resolves switchboard/ai, /openai-agents and /livekit through the exports', async () => {
    const require = createRequire(resolve(__dirname, '../../package.json'));
    for (const name of Object.keys(FRAMEWORKS)) {
      const path = require.resolve(`switchboard/${name}`);
      expect(path).toMatch(new RegExp(`dist/entries/${name}\\.js$`));
    }
    const ai = (await import('switchboard/ai')) as Record<string, unknown>;
    expect(ai.createAiTools).toBeTypeOf('function');
  });
});
