// Speech ids and acknowledgement, speak-then-act and the barge-in lock, on fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../../src/definition/load.js';
import { createSession } from '../../../src/session/create-session.js';
import type { SessionEvent, SessionOptions } from '../../../src/session/types.js';
import { ScriptedModel } from '../../../src/testing.js';
import { fn } from '../fixtures.js';

const tools = await loadTools([
  { type: 'action', tool: fn('hangup', {}) },
  { type: 'action', tool: fn('transfer', {}), options: { speech: { interruptible: false } } },
  {
    type: 'action',
    tool: fn('note', {}),
    options: { speech: { after_speech: false } },
  },
  { type: 'action', tool: fn('quick_hangup', {}), options: { speech: { maxWaitMs: 2000 } } },
]);

function farewell(tool: string, extra: Partial<SessionOptions> = {}) {
  const log: string[] = [];
  const events: SessionEvent[] = [];
  const s = createSession({
    tools,
    model: new ScriptedModel([
      { text: ['Goodbye, ', 'thanks for calling!'], tool_calls: [{ name: tool }] },
      { text: 'Bye.' },
    ]),
    actions: {
      hangup: () => {
        log.push('hangup');
        return { status: 'ok' };
      },
      transfer: () => {
        log.push('transfer');
        return new Promise((r) => setTimeout(() => r({ status: 'ok' }), 1000));
      },
      note: () => {
        log.push('note');
        return { status: 'ok' };
      },
      quick_hangup: () => {
        log.push('quick_hangup');
        return { status: 'ok' };
      },
    },
    speechAck: 'host',
    onEvent: (e) => events.push(e),
    ...extra,
  });
  const speechIds = (): string[] => [
    ...new Set(
      events.flatMap((e) => (e.type === 'text-delta' || e.type === 'say' ? [e.speechId] : [])),
    ),
  ];
  return { s, log, events, speechIds };
}

describe('speech acknowledgement', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives consecutive text deltas one speech id and each utterance its own', async () => {
    const { s, events } = farewell('note', { speechAck: 'auto' });
    await s.run('bye');
    const ids = events.flatMap((e) => (e.type === 'text-delta' ? [e.speechId] : []));
    expect(ids).toEqual(['sp_1', 'sp_1', 'sp_2']);
    expect(s.spoken('sp_1')).toBe(false); // auto: already spoken
  });

  it('spoken() is true once per pending id, false for unknown ones', async () => {
    const { s, speechIds } = farewell('note');
    const run = s.run('bye');
    await vi.advanceTimersByTimeAsync(0);
    await run;
    expect(speechIds()).toEqual(['sp_1', 'sp_2']);
    expect(s.spoken('sp_1')).toBe(true);
    expect(s.spoken('sp_1')).toBe(false);
    expect(s.spoken('nope')).toBe(false);
    expect(s.spokenAll()).toBe(1);
    expect(s.spokenAll()).toBe(0);
  });
});

describe('speak-then-act', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('dispatches the action only after the farewell was acknowledged', async () => {
    const { s, log } = farewell('hangup');
    const run = s.run('bye');
    await vi.advanceTimersByTimeAsync(3000);
    expect(log).toEqual([]);
    expect(s.spoken('sp_1')).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['hangup']);
    const r = await run;
    const trace = r.traces.find((t) => t.tool === 'hangup');
    expect(trace?.speechWait).toEqual({ waitedMs: 3000, outcome: 'spoken', speechIds: ['sp_1'] });
  });

  it('spokenAll() releases the wait and records a spoken event per utterance, as spoken(id) does', async () => {
    const { s, log, events } = farewell('hangup');
    const run = s.run('bye');
    await vi.advanceTimersByTimeAsync(3000);
    expect(log).toEqual([]);
    expect(s.spokenAll()).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['hangup']);
    const r = await run;
    const spoken = (list: readonly SessionEvent[]) =>
      list.flatMap((e) => (e.type === 'spoken' ? [e.speechId] : []));
    // The host's callback and the turn's own record both have it.
    expect(spoken(events)).toEqual(['sp_1']);
    expect(spoken(r.events)).toEqual(['sp_1']);
  });

  it('does not wait when the speech was acknowledged before the call', async () => {
    const events: string[] = [];
    const { s, log } = farewell('hangup', {
      onEvent: (e) => {
        // The host's player finishes each utterance the moment it starts.
        if (e.type === 'text-delta' && !events.includes(e.speechId)) {
          events.push(e.speechId);
          queueMicrotask(() => s.spoken(e.speechId));
        }
      },
    });
    const r = await s.run('bye');
    expect(log).toEqual(['hangup']);
    expect(r.traces.find((t) => t.tool === 'hangup')?.speechWait).toBeUndefined();
  });

  it('gives up waiting at max_wait_ms and says so in the trace', async () => {
    const { s, log } = farewell('quick_hangup');
    const run = s.run('bye');
    await vi.advanceTimersByTimeAsync(1999);
    expect(log).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(log).toEqual(['quick_hangup']);
    const r = await run;
    expect(r.traces.find((t) => t.tool === 'quick_hangup')?.speechWait).toMatchObject({
      waitedMs: 2000,
      outcome: 'timeout',
    });
  });

  it('after_speech: false dispatches at once', async () => {
    const { s, log } = farewell('note');
    const run = s.run('bye');
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['note']);
    await run;
  });

  it("speechAck 'auto' never waits", async () => {
    const { s, log } = farewell('hangup', { speechAck: 'auto' });
    await s.run('bye');
    expect(log).toEqual(['hangup']);
  });

  it('a barge-in during the farewell cancels an interruptible action before it runs', async () => {
    const { s, log } = farewell('hangup');
    const run = s.run('bye');
    await vi.advanceTimersByTimeAsync(500);
    expect(s.interrupt()).toBe(true);
    const r = await run;
    expect(log).toEqual([]);
    expect(r.interrupted).toBe(true);
    const trace = r.traces.find((t) => t.tool === 'hangup');
    expect(trace?.errorCode).toBe('cancelled');
    expect(trace?.speechWait?.outcome).toBe('interrupted');
    // The farewell was cut off, not played: nothing is left to acknowledge.
    expect(s.spokenAll()).toBe(0);
  });
});

describe('barge-in lock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses interrupt() while a non-interruptible call waits and runs, then accepts it', async () => {
    const { s, log } = farewell('transfer');
    const run = s.run('bye');
    await vi.advanceTimersByTimeAsync(100);
    expect(s.interrupt()).toBe(false); // waiting for the farewell
    s.spokenAll();
    await vi.advanceTimersByTimeAsync(500);
    expect(log).toEqual(['transfer']);
    expect(s.interrupt()).toBe(false); // running
    await vi.advanceTimersByTimeAsync(600);
    const r = await run;
    expect(r.interrupted).toBe(false);
    expect(r.traces.find((t) => t.tool === 'transfer')?.isError).toBe(false);
    expect(s.interrupt()).toBe(true); // nothing pending any more
  });

  it('interrupt() returns true when nothing is locked', () => {
    const { s } = farewell('note');
    expect(s.interrupt()).toBe(true);
  });
});

describe('speak-then-act looks at the current turn only', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an utterance of an earlier turn left unacknowledged does not hold a call back', async () => {
    const log: string[] = [];
    const events: SessionEvent[] = [];
    const s = createSession({
      tools,
      model: new ScriptedModel([
        { text: 'Hello, how can I help?' },
        { tool_calls: [{ name: 'hangup' }] },
        { text: 'Bye.' },
      ]),
      actions: { hangup: () => (log.push('hangup'), { status: 'ok' }) },
      speechAck: 'host',
      onEvent: (e) => events.push(e),
    });
    const first = s.run('hi');
    await vi.runAllTimersAsync();
    await first;
    const second = s.run('bye');
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['hangup']);
    await vi.runAllTimersAsync();
    const r = await second;
    expect(r.events.some((e) => e.type === 'speech-wait')).toBe(false);
    expect(r.traces[0]?.speechWait).toBeUndefined();
  });

  it('a call cancelled by a barge-in says no spoken error: the caller is talking', async () => {
    const spokenTools = await loadTools([
      {
        type: 'action',
        tool: fn('hangup', {}),
        options: { speech: { on_error: { '*': { en: 'Sorry, I could not hang up.' } } } },
      },
    ]);
    const log: string[] = [];
    const s = createSession({
      tools: spokenTools,
      model: new ScriptedModel([{ text: 'Goodbye!', tool_calls: [{ name: 'hangup' }] }]),
      actions: { hangup: () => (log.push('hangup'), { status: 'ok' }) },
      speechAck: 'host',
    });
    const run = s.run('bye');
    await vi.advanceTimersByTimeAsync(500);
    expect(s.interrupt()).toBe(true);
    const r = await run;
    expect(log).toEqual([]);
    expect(r.traces[0]?.errorCode).toBe('cancelled');
    expect(r.events.filter((e) => e.type === 'say')).toEqual([]);
  });
});

describe('a barge-in cuts off the speech still pending', () => {
  it('drops it without acknowledging it: no spoken event, spoken(id) and spokenAll() find nothing', async () => {
    const events: SessionEvent[] = [];
    const s = createSession({
      tools,
      model: new ScriptedModel([{ text: 'Your balance is forty dollars.' }, { text: 'Sure.' }]),
      speechAck: 'host',
      onEvent: (e) => events.push(e),
    });
    await s.run('balance?');
    const id = events.find((e) => e.type === 'text-delta')?.speechId;
    expect(id).toBe('sp_1');
    // The caller talks over the answer while it plays: the host stops playback and interrupts.
    expect(s.interrupt()).toBe(true);
    expect(s.spoken('sp_1')).toBe(false);
    expect(s.spokenAll()).toBe(0);
    // The next turn's speech is pending and acknowledged as usual.
    await s.run('and my card?');
    expect(s.spokenAll()).toBe(1);
    expect(events.some((e) => e.type === 'spoken')).toBe(false);
  });
});
