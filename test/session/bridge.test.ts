import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionEvent, SessionOptions } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

const tools = await loadTools([
  {
    type: 'action',
    tool: fn('slow', {}),
    options: { bridgePhrases: { 'en-US': ['One moment.', 'Still working.'], es: ['Un momento.'] } },
  },
  { type: 'action', tool: fn('quiet', {}) },
]);

function slowSession(ms: number, extra: Partial<SessionOptions> = {}) {
  const says: { at: number; text: string; source: string }[] = [];
  const start = Date.now();
  const s = createSession({
    tools,
    model: new ScriptedModel([{ tool_calls: [{ name: 'slow' }] }, { text: 'done' }]),
    actions: {
      slow: () => new Promise((r) => setTimeout(() => r('ok'), ms)),
      quiet: () => new Promise((r) => setTimeout(() => r('ok'), ms)),
    },
    actionTimeoutSecs: 60,
    onEvent: (e: SessionEvent) => {
      if (e.type === 'say') says.push({ at: Date.now() - start, text: e.text, source: e.source });
    },
    ...extra,
  });
  return { s, says };
}

describe('bridge phrases', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('speaks at the threshold, 2× and 3×, never after the tool finished', async () => {
    const { s, says } = slowSession(9000);
    const result = s.run('x');
    await vi.advanceTimersByTimeAsync(2700);
    expect(says).toEqual([]);
    await vi.advanceTimersByTimeAsync(100);
    expect(says).toEqual([{ at: 2750, text: 'One moment.', source: 'bridge' }]);
    await vi.advanceTimersByTimeAsync(30_000);
    const r = await result;
    expect(says.map((x) => [x.at, x.text])).toEqual([
      [2750, 'One moment.'],
      [5500, 'Still working.'],
      [8250, 'One moment.'],
    ]);
    expect(
      r.events.filter((e) => e.type === 'say').every((e) => e.type === 'say' && e.tool === 'slow'),
    ).toBe(true);
    // Left: only the action deadlines' idle timer (docs/handlers.md), which fires once and goes.
    expect(vi.getTimerCount()).toBe(1);
    vi.runOnlyPendingTimers();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('stops at 4× the threshold', async () => {
    const { s, says } = slowSession(20_000);
    const result = s.run('x');
    await vi.advanceTimersByTimeAsync(25_000);
    await result;
    expect(says.map((x) => x.at)).toEqual([2750, 5500, 8250, 11000]);
  });

  it('says nothing for a fast tool', async () => {
    const { s, says } = slowSession(1000);
    const result = s.run('x');
    await vi.advanceTimersByTimeAsync(10_000);
    await result;
    expect(says).toEqual([]);
    // Left: only the action deadlines' idle timer (docs/handlers.md), which fires once and goes.
    expect(vi.getTimerCount()).toBe(1);
    vi.runOnlyPendingTimers();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('picks the session language (primary subtag fallback) and session phrases first', async () => {
    const es = slowSession(4000, { language: 'es-US' });
    const r1 = es.s.run('x');
    await vi.advanceTimersByTimeAsync(5000);
    await r1;
    expect(es.says.map((x) => x.text)).toEqual(['Un momento.']);

    const custom = slowSession(4000, {
      bridge: { thresholdSecs: 1, phrases: { slow: { '*': ['Hang on.'] } } },
    });
    const r2 = custom.s.run('x');
    await vi.advanceTimersByTimeAsync(5000);
    await r2;
    expect(custom.says.map((x) => [x.at, x.text])).toEqual([
      [1000, 'Hang on.'],
      [2000, 'Hang on.'],
      [3000, 'Hang on.'],
    ]);
  });

  it('has no phrases for tools without any', async () => {
    const { s, says } = slowSession(5000);
    const model = new ScriptedModel([{ tool_calls: [{ name: 'quiet' }] }, { text: 'ok' }]);
    const s2 = createSession({
      tools,
      model,
      actions: { quiet: () => new Promise((r) => setTimeout(() => r('ok'), 5000)) },
    });
    const r = s2.run('x');
    await vi.advanceTimersByTimeAsync(6000);
    expect((await r).events.some((e) => e.type === 'say')).toBe(false);
    void s;
    expect(says).toEqual([]);
  });
});
