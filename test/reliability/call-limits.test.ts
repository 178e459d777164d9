/**
 * Issue 14, item 7: one answer with thousands of tool calls runs at most
 * `limits.maxCallsPerAnswer`; the rest get `too_many_calls` (each id once); one session's endpoint
 * calls in flight never exceed `limits.maxConcurrentEndpointCalls`; no max-listeners warning at
 * any count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import type { ToolSet } from '../../src/definition/types.js';
import { createSession } from '../../src/session/create-session.js';
import { DEFAULT_MAX_CALLS_PER_ANSWER } from '../../src/session/argument-limits.js';
import { ScriptedModel } from '../../src/testing.js';
import { startTestServer, type TestServer } from '../handlers/test-server.js';
import { fn } from './helpers.js';

let server: TestServer;
let tools: ToolSet;
let inFlight = 0;
let peak = 0;
let requests = 0;
beforeAll(async () => {
  server = await startTestServer();
  server.route('/slow', (_req, res) => {
    requests++;
    inFlight++;
    peak = Math.max(peak, inFlight);
    const timer = setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    }, 30);
    res.on('close', () => clearTimeout(timer));
  });
  tools = await loadTools([
    {
      type: 'endpoint',
      tool: fn('get_slow', {}),
      endpoint: { url: `${server.origin}/slow`, method: 'get', timeout: 20 },
    },
    { type: 'context', tool: fn('note', { say: { type: 'string' } }) },
  ]);
});
afterAll(() => server.close());

function manyCalls(tool: string, n: number): ScriptedModel {
  return new ScriptedModel(
    [
      { tool_calls: Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: tool })) },
      { text: 'done' },
    ],
    { record: true },
  );
}

async function withWarnings<T>(work: () => Promise<T>): Promise<{ value: T; warnings: string[] }> {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  try {
    const value = await work();
    await new Promise((r) => setTimeout(r, 20)); // warnings are emitted on the next tick
    return { value, warnings };
  } finally {
    process.off('warning', onWarning);
  }
}

describe('calls per answer and endpoint concurrency (item 7)', () => {
  it('3000 endpoint calls in one answer: 32 run, 8 at most at once, the rest too_many_calls', async () => {
    requests = 0;
    peak = 0;
    const model = manyCalls('get_slow', 3000);
    const { value: result, warnings } = await withWarnings(() =>
      createSession({ tools, model }).run('go'),
    );
    expect(requests).toBe(DEFAULT_MAX_CALLS_PER_ANSWER);
    expect(peak).toBeLessThanOrEqual(8);
    expect(result.traces).toHaveLength(3000);
    expect(result.traces.filter((t) => t.errorCode === 'too_many_calls')).toHaveLength(2968);
    expect(result.traces.slice(0, 32).every((t) => !t.isError)).toBe(true);
    const answered = (model.calls[1]?.messages ?? []).flatMap((m) =>
      m.role === 'tool' ? [m.tool_call_id] : [],
    );
    expect(new Set(answered).size).toBe(3000);
    expect(answered).toHaveLength(3000);
    expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
  });

  it.each([11, 32])('%i cancellable context calls print no listener warning', async (n) => {
    const { value, warnings } = await withWarnings(() =>
      createSession({ tools, model: manyCalls('note', n) }).run('go'),
    );
    expect(value.traces).toHaveLength(n);
    expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
  });

  it('the limits are options', async () => {
    requests = 0;
    peak = 0;
    const result = await createSession({
      tools,
      model: manyCalls('get_slow', 10),
      limits: { maxCallsPerAnswer: 4, maxConcurrentEndpointCalls: 1 },
    }).run('go');
    expect(requests).toBe(4);
    expect(peak).toBe(1);
    expect(result.traces.map((t) => t.errorCode ?? 'ok')).toEqual([
      ...Array<string>(4).fill('ok'),
      ...Array<string>(6).fill('too_many_calls'),
    ]);
    expect(() =>
      createSession({ tools, model: manyCalls('note', 1), limits: { maxCallsPerAnswer: 0 } }),
    ).toThrow(/maxCallsPerAnswer/);
  });

  it('close() while calls wait for a slot sends none of them', async () => {
    requests = 0;
    const session = createSession({
      tools,
      model: manyCalls('get_slow', 20),
      limits: { maxConcurrentEndpointCalls: 2 },
    });
    const running = session.run('go').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 10));
    await session.close();
    await running;
    await new Promise((r) => setTimeout(r, 50));
    expect(requests).toBeLessThanOrEqual(2);
  });
});
