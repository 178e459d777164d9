/**
 * A tool set whose `tools` map changes while a session runs (the MCP tool source does this after a
 * server's tool list changed, docs/mcp.md): later rounds show and run the new map.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import type { ToolDefinition, ToolSet } from '../../src/definition/types.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

async function live(): Promise<{
  set: ToolSet;
  swap(next: ReadonlyMap<string, ToolDefinition>): void;
}> {
  let current = (await loadTools([{ type: 'action', tool: fn('lookup', {}, [], 'first') }])).tools;
  return {
    set: {
      get tools() {
        return current;
      },
      warnings: [],
      files: [],
    },
    swap: (next) => void (current = next),
  };
}

describe('a tool set whose map changes', () => {
  it('the next turn shows the new definitions, also to an agent with a tool list', async () => {
    const { set, swap } = await live();
    const model = new ScriptedModel([{ text: 'a' }, { text: 'b' }], { record: true });
    const session = createSession({
      tools: set,
      model,
      agents: { front: { prompt: 'p', tools: ['lookup'] } },
    });
    await session.run('one');
    swap(
      (
        await loadTools([
          { type: 'action', tool: fn('lookup', {}, [], 'second') },
          { type: 'action', tool: fn('other') },
        ])
      ).tools,
    );
    await session.run('two');
    const descriptions = model.calls.map((c) => c.tools.map((t) => t.function.description));
    // The agent's own tool list still applies (`other` is not on it).
    expect(descriptions).toEqual([['first'], ['second']]);
  });
});
