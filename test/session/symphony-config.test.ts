// Symphony tool config: per-tool `timeout` (ms) and `retryCount` on every tool type, agent-level
// `maxCalls` and whole-turn `timeout`. Deadlines run on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MockAgent } from 'undici';
import { createSession, DefinitionError, loadTools } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

const never = (): Promise<never> => new Promise(() => undefined);

describe('per-tool timeout and retryCount', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an action past its `timeout` becomes a typed timeout error, its signal aborted', async () => {
    const tools = await loadTools([{ type: 'action', tool: fn('hold', {}), timeout: 1500 }]);
    let seen: AbortSignal | undefined;
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'hold', args: {} }] }, { text: 'Sorry.' }],
      { record: true },
    );
    const s = createSession({
      tools,
      model,
      actions: {
        hold: (_args, ctx) => {
          seen = ctx.signal;
          return never();
        },
      },
    });
    const result = s.run('x');
    await vi.advanceTimersByTimeAsync(1499);
    expect(seen?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const r = await result;
    expect(seen?.aborted).toBe(true);
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'timeout' });
    expect(r.traces[0]?.output).toEqual({
      error: { code: 'timeout', message: 'hold did not finish within 1500 ms' },
    });
    expect(r.traces[0]?.duration_secs).toBe(1.5);
    expect(r.events.find((e) => e.type === 'tool-error')).toMatchObject({ code: 'timeout' });
    // Left: only the action deadlines' idle timer (docs/handlers.md), which fires once and goes.
    expect(vi.getTimerCount()).toBe(1);
    vi.runOnlyPendingTimers();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('without `timeout` the action deadline is the session default', async () => {
    const tools = await loadTools([{ type: 'action', tool: fn('hold', {}) }]);
    const model = new ScriptedModel([{ tool_calls: [{ name: 'hold', args: {} }] }, { text: '.' }], {
      record: true,
    });
    const s = createSession({ tools, model, actions: { hold: never } });
    const result = s.run('x');
    await vi.advanceTimersByTimeAsync(19_000);
    expect(model.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await result).traces[0]?.errorCode).toBe('timeout');
  });

  it('retryCount retries a timed-out action, and stops at the first success', async () => {
    const tools = await loadTools([
      { type: 'action', tool: fn('flaky', {}), timeout: 1000, retryCount: 2 },
    ]);
    let calls = 0;
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'flaky', args: {} }] }, { text: '.' }],
      { record: true },
    );
    const s = createSession({
      tools,
      model,
      actions: { flaky: () => (++calls < 3 ? never() : 'third time') },
    });
    const result = s.run('x');
    await vi.advanceTimersByTimeAsync(2000);
    const r = await result;
    expect(calls).toBe(3);
    expect(r.traces[0]).toMatchObject({ isError: false, output: 'third time' });
  });

  it('retry_count gives up after the last attempt; a crash is never retried', async () => {
    const tools = await loadTools([
      { type: 'action', tool: fn('slow', {}), timeout: 100, retry_count: 1 },
      { type: 'action', tool: fn('broken', {}), retryCount: 3 },
    ]);
    let slow = 0;
    let broken = 0;
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            { name: 'slow', args: {} },
            { name: 'broken', args: {} },
          ],
        },
        { text: '.' },
      ],
      { record: true },
    );
    const s = createSession({
      tools,
      model,
      actions: {
        slow: () => {
          slow++;
          return never();
        },
        broken: () => {
          broken++;
          throw new Error('boom');
        },
      },
    });
    const result = s.run('x');
    await vi.advanceTimersByTimeAsync(500);
    const r = await result;
    expect(slow).toBe(2);
    expect(broken).toBe(1);
    expect(r.traces.map((t) => t.errorCode)).toEqual(['timeout', 'handler_error']);
  });

  it('applies to log, context and endpoint tools too (retrying a 503)', async () => {
    const http = new MockAgent();
    http.disableNetConnect();
    const pool = http.get('http://127.0.0.1:9');
    pool.intercept({ path: '/orders', method: 'POST' }).reply(503, 'busy');
    pool
      .intercept({ path: '/orders', method: 'POST' })
      .reply(200, { id: 7 }, { headers: { 'content-type': 'application/json' } });
    const tools = await loadTools([
      { type: 'log', tool: fn('note', {}), timeout: 50, retryCount: 1 },
      { type: 'context', tool: fn('ctx', { say: { type: 'string' } }), timeout: 50 },
      {
        tool: fn('order', {}),
        endpoint: { url: 'http://127.0.0.1:9/orders', method: 'post' },
        retryCount: 1,
      },
    ]);
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            { name: 'note', args: {} },
            { name: 'ctx', args: { say: 'hi' } },
            { name: 'order', args: {} },
          ],
        },
        { text: '.' },
      ],
      { record: true },
    );
    vi.useRealTimers();
    const r = await createSession({ tools, model, dispatcher: http }).run('x');
    expect(r.traces.map((t) => [t.tool, t.isError])).toEqual([
      ['note', false],
      ['ctx', false],
      ['order', false],
    ]);
    expect(r.traces[2]?.output).toEqual({ id: 7 });
    expect(r.traces[2]?.requests).toHaveLength(2);
    await http.close();
  });

  it('retries a 429 like a 5xx, but never another 4xx', async () => {
    const http = new MockAgent();
    http.disableNetConnect();
    const pool = http.get('http://127.0.0.1:9');
    pool.intercept({ path: '/orders', method: 'POST' }).reply(429, 'slow down');
    pool
      .intercept({ path: '/orders', method: 'POST' })
      .reply(200, { id: 8 }, { headers: { 'content-type': 'application/json' } });
    pool.intercept({ path: '/missing', method: 'POST' }).reply(404, 'no such order');
    const tools = await loadTools([
      {
        tool: fn('order', {}),
        endpoint: { url: 'http://127.0.0.1:9/orders', method: 'post' },
        retryCount: 1,
      },
      {
        tool: fn('amend', {}),
        endpoint: { url: 'http://127.0.0.1:9/missing', method: 'post' },
        retryCount: 1,
      },
    ]);
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'order', args: {} },
          { name: 'amend', args: {} },
        ],
      },
      { text: '.' },
    ]);
    vi.useRealTimers();
    const r = await createSession({ tools, model, dispatcher: http }).run('x');
    expect(r.traces[0]).toMatchObject({ tool: 'order', isError: false, output: { id: 8 } });
    expect(r.traces[0]?.requests).toHaveLength(2);
    expect(r.traces[1]).toMatchObject({ tool: 'amend', isError: true, errorCode: 'http_status' });
    expect(r.traces[1]?.requests).toHaveLength(1);
    await http.close();
  });

  it('the run-wide cap (toolTimeoutCapSecs) shortens a longer per-tool timeout', async () => {
    const tools = await loadTools([{ type: 'action', tool: fn('hold', {}), timeout: 5000 }]);
    const model = new ScriptedModel([{ tool_calls: [{ name: 'hold', args: {} }] }, { text: '.' }]);
    const s = createSession({ tools, model, toolTimeoutCapSecs: 1, actions: { hold: never } });
    let ended = false;
    const result = s.run('x').finally(() => (ended = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(ended).toBe(true);
    const r = await result;
    expect(r.traces[0]?.output).toEqual({
      error: { code: 'timeout', message: 'hold did not finish within 1 s' },
    });
    vi.runOnlyPendingTimers();
  });

  it('refuses bad values at load with the path', async () => {
    await expect(
      loadTools([{ type: 'action', tool: fn('a', {}), timeout: -1, retryCount: 9 }]),
    ).rejects.toThrow(DefinitionError);
    await expect(
      loadTools([{ type: 'action', tool: fn('a', {}), retryCount: 1.5 }]),
    ).rejects.toThrow(/tools\[0\]\.retryCount/);
  });
});

describe('agent maxCalls and turn timeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('maxCalls caps model calls per turn (agent value wins over the session)', async () => {
    const tools = await loadTools([{ type: 'log', tool: fn('note', {}) }]);
    const loop = { tool_calls: [{ name: 'note', args: {} }] };
    const model = new ScriptedModel([loop, loop, loop], { record: true });
    const s = createSession({
      tools,
      model,
      maxCalls: 5,
      agents: { main: { prompt: 'p', maxCalls: 2 } },
    });
    const result = s.run('x');
    await vi.runAllTimersAsync();
    const r = await result;
    expect(model.calls).toHaveLength(2);
    expect(r.events.find((e) => e.type === 'max-rounds')).toEqual({
      type: 'max-rounds',
      rounds: 2,
    });
  });

  it('timeout ends the whole turn like an interruption, with reason timeout', async () => {
    const tools = await loadTools([{ type: 'log', tool: fn('note', {}) }]);
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'note', args: {} }] }, { text: 'late', delayMs: 10_000 }],
      { record: true },
    );
    const s = createSession({ tools, model, turnTimeoutMs: 3000 });
    const result = s.run('x');
    await vi.advanceTimersByTimeAsync(3000);
    const r = await result;
    expect(r.interrupted).toBe(true);
    expect(r.events.find((e) => e.type === 'interrupted')).toEqual({
      type: 'interrupted',
      reason: 'timeout',
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the active agent’s timeout wins over the session’s turnTimeoutMs', async () => {
    const tools = await loadTools([{ type: 'log', tool: fn('note', {}) }]);
    const model = new ScriptedModel([{ text: 'late', delayMs: 10_000 }]);
    const s = createSession({
      tools,
      model,
      turnTimeoutMs: 5000,
      agents: { main: { prompt: 'p', timeout: 1000 } },
    });
    let ended = false;
    const result = s.run('x').finally(() => (ended = true));
    await vi.advanceTimersByTimeAsync(1000);
    expect(ended).toBe(true);
    const r = await result;
    expect(r.events.find((e) => e.type === 'interrupted')).toEqual({
      type: 'interrupted',
      reason: 'timeout',
    });
  });

  it('a turn the caller interrupted is not reported as timed out when its deadline passes later', async () => {
    // An action is not cancelled by an interruption: it runs on past the turn's deadline.
    const tools = await loadTools([{ type: 'action', tool: fn('charge', {}) }]);
    const model = new ScriptedModel([{ tool_calls: [{ name: 'charge', args: {} }] }]);
    let started = false;
    const s = createSession({
      tools,
      model,
      turnTimeoutMs: 3000,
      actions: {
        charge: () => {
          started = true;
          return new Promise((resolve) => setTimeout(() => resolve({ ok: true }), 5000));
        },
      },
    });
    const result = s.run('x');
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toBe(true);
    expect(s.interrupt()).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    const r = await result;
    expect(r.interrupted).toBe(true);
    expect(r.traces[0]).toMatchObject({ tool: 'charge', isError: false, output: { ok: true } });
    expect(r.events.find((e) => e.type === 'interrupted')).toEqual({ type: 'interrupted' });
  });
});
