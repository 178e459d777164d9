import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionEvent, TurnResult } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';
import { json, startTestServer, type TestServer } from '../handlers/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.route('/orders', json(200, { ok: true, ref: 'r1' }));
});
afterAll(() => server.close());

/** Every record a turn's result holds, nested ones included. */
function recordsOf(result: TurnResult): object[] {
  const out: object[] = [...result.events, result.usage, result.timings];
  out.push(...result.timings.modelCalls, ...result.timings.tools);
  for (const trace of result.traces) out.push(trace, ...(trace.requests ?? []));
  return out;
}

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

  it('makes every record of an endpoint turn a plain object, keys in their documented order', async () => {
    const tools = await loadTools([
      {
        type: 'endpoint',
        tool: fn('place_order', { ref: { type: 'string' } }),
        endpoint: { url: `${server.origin}/orders`, method: 'post', argument_location: 'body' },
      },
    ]);
    const session = createSession({
      tools,
      model: new ScriptedModel([
        { tool_calls: [{ name: 'place_order', args: { ref: 'r1' } }] },
        { text: 'Placed.' },
      ]),
    });
    const result = await session.run('order');
    expect(result.events.map((e) => e.type)).toEqual([
      'turn-start',
      'tool-call',
      'http-request',
      'http-response',
      'tool-result',
      'text-delta',
      'turn-end',
    ]);
    for (const record of recordsOf(result)) {
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(record.constructor).toBe(Object);
      expect(inspect(record)).toBe(inspect({ ...record }));
    }
    const [trace] = result.traces;
    expect(Object.keys(trace ?? {})).toEqual([
      'tool',
      'args',
      'duration_secs',
      'callId',
      'rawArguments',
      'transform',
      'requests',
      'output',
      'isError',
    ]);
    expect(trace?.requests?.map((r) => Object.keys(r))).toEqual([
      ['method', 'url', 'headers', 'body', 'attempt', 'status'],
    ]);
    expect(Object.keys(result.timings)).toEqual([
      'totalMs',
      'modelTimeToFirstTokenMs',
      'modelTimeToFirstToolCallMs',
      'modelCalls',
      'tools',
      'phrasesSpoken',
      'usage',
    ]);
    expect(Object.keys(result.timings.tools[0] ?? {})).toEqual([
      'callId',
      'tool',
      'durationMs',
      'queuedMs',
    ]);
    expect(result.events[0]).toStrictEqual({ type: 'turn-start', turn: 1, user: 'order' });
    expect(result.events[4]).toMatchObject({
      type: 'tool-result',
      output: { ok: true, ref: 'r1' },
    });
    expect('propagate' in (result.events[4] ?? {})).toBe(false);
    expect(JSON.parse(JSON.stringify(result.traces))).toEqual(result.traces);
  });
});
