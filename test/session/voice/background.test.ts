// Background tools: `{"status":"started"}` at once, the result spoken in a turn of its own,
// serialised with caller turns; close() cancels or keeps by side-effect class. Fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../../src/definition/load.js';
import { createSession } from '../../../src/session/create-session.js';
import type { SessionEvent, TurnStream } from '../../../src/session/types.js';
import { ScriptedModel } from '../../../src/testing.js';
import { actionResult } from '../../../src/handlers/action-result.js';
import { BackgroundCalls } from '../../../src/session/voice/background-calls.js';
import type { ToolCallResult } from '../../../src/session/execute-tool-call.js';
import { fn } from '../fixtures.js';

const tools = await loadTools([
  {
    type: 'action',
    tool: fn('track', { order: { type: 'string' } }),
    options: { background: true, side_effects: 'none' },
  },
  {
    type: 'action',
    tool: fn('refund', {}),
    options: { background: true },
  },
]);

function setup(steps: ConstructorParameters<typeof ScriptedModel>[0]) {
  const log: string[] = [];
  const turns: TurnStream[] = [];
  const events: SessionEvent[] = [];
  let refunds = 0;
  let tracksFinished = 0;
  const model = new ScriptedModel(steps, { record: true });
  const s = createSession({
    tools,
    model,
    actions: {
      track: (args, ctx) =>
        new Promise((resolve, reject) => {
          const t = setTimeout(() => {
            tracksFinished++;
            resolve({ order: args['order'], status: 'shipped' });
          }, 5000);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(t);
            reject(new Error('aborted'));
          });
        }),
      refund: () =>
        new Promise((resolve) =>
          setTimeout(() => {
            refunds++;
            resolve({ refunded: true });
          }, 5000),
        ),
    },
    actionTimeoutSecs: 60,
    onTurn: (t) => turns.push(t),
    onEvent: (e) => {
      events.push(e);
      if (e.type === 'turn-start') log.push(`turn ${e.turn}${e.reason ? ` (${e.reason})` : ''}`);
      if (e.type === 'turn-end') log.push(`end: ${e.content}`);
    },
  });
  return {
    s,
    model,
    log,
    turns,
    events,
    counts: () => ({ refunds, tracksFinished }),
  };
}

describe('background tools', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the model gets {"status":"started"} at once and the result is spoken without a caller turn', async () => {
    const { s, model, log, turns } = setup([
      {
        text: 'Let me check.',
        tool_calls: [{ name: 'track', args: { order: 'A1' }, id: 'bg1' }],
      },
      { text: 'I am tracking it. Anything else?' },
      { text: 'Your order A1 has shipped.' },
    ]);
    const first = await s.run('where is my order?');
    expect(first.traces[0]).toMatchObject({ output: { status: 'started' }, background: 'started' });
    const toolMessage = model.calls[1]?.messages.find((m) => m.role === 'tool');
    expect(toolMessage).toEqual({
      role: 'tool',
      tool_call_id: 'bg1',
      content: '{"status":"started"}',
    });
    expect(log).toEqual(['turn 1', 'end: I am tracking it. Anything else?']);

    await vi.advanceTimersByTimeAsync(5000);
    await s.idle();
    expect(log.slice(2)).toEqual(['turn 2 (tool-result)', 'end: Your order A1 has shipped.']);
    expect(turns).toHaveLength(1);
    const bg = await turns[0]!.result;
    expect(bg.events[0]).toEqual({
      type: 'turn-start',
      turn: 2,
      user: '',
      reason: 'tool-result',
      callId: 'bg1',
    });
    expect(bg.events[1]).toMatchObject({
      type: 'tool-result',
      callId: 'bg1',
      output: { order: 'A1', status: 'shipped' },
    });
    expect(bg.traces[0]?.background).toBe('finished');
    const handed = model.calls[2]?.messages.at(-1);
    expect(handed).toEqual({
      role: 'system',
      content:
        'The background call track (id bg1) finished. Its result: {"order":"A1","status":"shipped"}',
    });
    // No user message was added for the engine's own turn.
    expect(s.toJSON().history.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('a caller turn arriving with the result is serialised, never interleaved', async () => {
    const { s, log, events } = setup([
      { tool_calls: [{ name: 'track', args: { order: 'A1' } }] },
      { text: 'Tracking.' },
      { text: 'It shipped.', delayMs: 100 },
      { text: 'You said hello.', delayMs: 100 },
    ]);
    await s.run('track A1');
    await vi.advanceTimersByTimeAsync(4999);
    const advance = vi.advanceTimersByTimeAsync(1);
    const caller = s.send('hello?'); // arrives in the same millisecond as the result
    await advance;
    await vi.advanceTimersByTimeAsync(1000);
    await caller.result;
    await s.idle();
    expect(log).toEqual([
      'turn 1',
      'end: Tracking.',
      'turn 2',
      'end: It shipped.',
      'turn 3 (tool-result)',
      'end: You said hello.',
    ]);
    // Each turn's events are contiguous: turn-start … turn-end, then the next turn-start.
    const kinds = events.filter((e) => e.type === 'turn-start' || e.type === 'turn-end');
    expect(kinds.map((e) => e.type)).toEqual([
      'turn-start',
      'turn-end',
      'turn-start',
      'turn-end',
      'turn-start',
      'turn-end',
    ]);
  });

  it('an interrupt never cancels a background call', async () => {
    const { s, counts } = setup([
      { tool_calls: [{ name: 'track', args: { order: 'A1' } }] },
      { text: 'Tracking, one moment while I', delayMs: 1000 },
      { text: 'Shipped.' },
    ]);
    const run = s.run('track');
    await vi.advanceTimersByTimeAsync(10);
    s.interrupt();
    await run;
    await vi.advanceTimersByTimeAsync(5000);
    await s.idle();
    expect(counts().tracksFinished).toBe(1);
  });

  it('close() cancels a background call of class none and lets an unsafe one finish', async () => {
    const { s, counts, log } = setup([
      {
        tool_calls: [
          { name: 'track', args: { order: 'A1' }, id: 'bg1' },
          { name: 'refund', id: 'bg2' },
        ],
      },
      { text: 'Working on both.' },
    ]);
    await s.run('track and refund');
    const closing = s.close();
    await vi.advanceTimersByTimeAsync(5000);
    await closing;
    expect(counts()).toEqual({ refunds: 1, tracksFinished: 0 });
    expect(log).toEqual(['turn 1', 'end: Working on both.']); // no turn after close
    const system = s
      .toJSON()
      .history.flatMap((m) => (m.role === 'system' ? [m.content] : []))
      .join('\n');
    expect(system).toContain('The background call refund (id bg2) finished');
    // The cancelled lookup is recorded as such, so a resumed conversation knows it never finished.
    expect(system).toMatch(/The background call track \(id bg1\) failed\. .*"code":"cancelled"/);
  });

  it('a result arriving after a tool ended the session is kept in history, with no turn of its own', async () => {
    const endingTools = await loadTools([
      { type: 'action', tool: fn('refund', {}), options: { background: true } },
      { type: 'action', tool: fn('hangup', {}) },
    ]);
    const turns: TurnStream[] = [];
    const s = createSession({
      tools: endingTools,
      model: new ScriptedModel([
        {
          text: 'Refunding, goodbye.',
          tool_calls: [
            { name: 'refund', id: 'bg' },
            { name: 'hangup', id: 'h' },
          ],
        },
      ]),
      actions: {
        refund: () => new Promise((resolve) => setTimeout(() => resolve({ refunded: true }), 5000)),
        hangup: () => actionResult({ result: 'bye', endSession: true }),
      },
      actionTimeoutSecs: 60,
      onTurn: (t) => turns.push(t),
    });
    await s.run('refund and hang up');
    expect(s.ended).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    await s.idle();
    expect(turns).toEqual([]);
    const system = s.toJSON().history.flatMap((m) => (m.role === 'system' ? [m.content] : []));
    expect(system).toHaveLength(1);
    expect(system[0]).toContain('The background call refund (id bg) finished');
  });
});

describe('BackgroundCalls after close()', () => {
  it('a call started once the session closed is cancelled at once when its class is none, else run', async () => {
    const calls = new BackgroundCalls();
    await calls.close();
    const [track, refund] = [tools.tools.get('track')!, tools.tools.get('refund')!];
    const signals: Record<string, boolean> = {};
    const closedFlags: boolean[] = [];
    for (const tool of [track, refund])
      calls.start(
        tool,
        (signal) => {
          signals[tool.name] = signal.aborted;
          return Promise.resolve({} as ToolCallResult);
        },
        (_result, closed) => closedFlags.push(closed),
      );
    await calls.settled();
    expect(signals).toEqual({ track: true, refund: false });
    expect(closedFlags).toEqual([true, true]);
  });
});
