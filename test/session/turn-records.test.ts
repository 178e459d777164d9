import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionEvent } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

describe("a turn's records", () => {
  it('hands onEvent the very objects the result lists, as plain objects and arrays', async () => {
    const tools = await loadTools([{ type: 'action', tool: fn('hang_up', {}) }]);
    const seen: SessionEvent[] = [];
    const session = createSession({
      tools,
      model: new ScriptedModel([{ tool_calls: [{ name: 'hang_up' }] }, { text: 'Bye.' }]),
      actions: { hang_up: () => 'ok' },
      onEvent: (e) => seen.push(e),
    });
    const result = await session.run('end the call');
    expect(result.events.map((e) => e.type)).toEqual(seen.map((e) => e.type));
    result.events.forEach((e, i) => expect(e).toBe(seen[i]));
    for (const record of [...result.events, result.usage, result.timings, ...result.traces])
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    for (const list of [result.events, result.traces, result.timings.modelCalls])
      expect(Array.isArray(list)).toBe(true);
    expect(result.timings.modelCalls).toHaveLength(2);
    expect(result.traces).toHaveLength(1);
    expect(result.traces[0]).toMatchObject({ tool: 'hang_up', output: 'ok', isError: false });
    expect(result.usage).toStrictEqual({ inputTokens: 0, outputTokens: 0 });
  });
});
