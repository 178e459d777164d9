// The `speech-wait` event: the session says when a speak-then-act call starts waiting for
// playback, which utterances it waits for, and its cap, before the call is dispatched.
import { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../../src/definition/load.js';
import { createSession } from '../../../src/session/create-session.js';
import type { SessionEvent, SessionOptions } from '../../../src/session/types.js';
import { ScriptedModel } from '../../../src/testing.js';
import { fn } from '../fixtures.js';

const ORIGIN = 'https://api.clinic.test';
const tools = await loadTools([
  {
    tool: fn('book', {}),
    endpoint: { url: `${ORIGIN}/book`, method: 'post' },
    options: {
      speech: {
        after_speech: true,
        max_wait_ms: 5000,
        before: { mode: 'always', phrases: { en: 'Booking it now.' } },
      },
    },
  },
  { type: 'action', tool: fn('hangup', {}) },
  { type: 'action', tool: fn('note', {}), options: { speech: { after_speech: false } } },
]);

describe('speech-wait event', () => {
  let agent: MockAgent;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
    agent.get(ORIGIN).intercept({ path: '/book', method: 'POST' }).reply(200, { ok: true });
  });
  afterEach(async () => {
    await agent.close();
  });

  function booking(tool: string, extra: Partial<SessionOptions> = {}) {
    const events: SessionEvent[] = [];
    let waited: (() => void) | undefined;
    const waiting = new Promise<void>((resolve) => (waited = resolve));
    const s = createSession({
      tools,
      model: new ScriptedModel([
        { text: ['Sure, ', 'one moment.'], tool_calls: [{ name: tool }] },
        { text: 'Done.' },
      ]),
      dispatcher: agent,
      actions: { hangup: () => ({ status: 'ok' }), note: () => ({ status: 'ok' }) },
      speechAck: 'host',
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'speech-wait') waited?.();
      },
      ...extra,
    });
    return { s, events, waiting };
  }

  it('follows the pre-tool phrase and comes before the call is dispatched, naming what it waits for', async () => {
    const { s, events, waiting } = booking('book');
    const run = s.run('book it');
    await waiting;
    const types = events.map((e) => e.type);
    const call = events.find((e) => e.type === 'tool-call');
    const wait = events.find((e) => e.type === 'speech-wait');
    expect(wait).toEqual({
      type: 'speech-wait',
      callId: call?.type === 'tool-call' ? call.callId : '?',
      tool: 'book',
      speechIds: ['sp_1', 'sp_2'],
      maxWaitMs: 5000,
    });
    // The model's text (sp_1), the call, its announcement (sp_2), then the wait; nothing was sent.
    expect(types.slice(types.indexOf('tool-call'))).toEqual(['tool-call', 'say', 'speech-wait']);
    expect(events.find((e) => e.type === 'say')).toMatchObject({
      source: 'pre-tool',
      speechId: 'sp_2',
    });
    expect(s.spokenAll()).toBe(2);
    const r = await run;
    const all = r.events.map((e) => e.type);
    expect(all.indexOf('speech-wait')).toBeLessThan(all.indexOf('http-request'));
    expect(all.filter((t) => t === 'speech-wait')).toHaveLength(1);
    // The trace says how the wait the event announced ended.
    expect(r.traces.find((t) => t.tool === 'book')?.speechWait).toMatchObject({
      outcome: 'spoken',
      speechIds: ['sp_1', 'sp_2'],
    });
  });

  it("is never emitted under speechAck 'auto'", async () => {
    const { s, events } = booking('book', { speechAck: 'auto' });
    const r = await s.run('book it');
    expect(events.some((e) => e.type === 'speech-wait')).toBe(false);
    expect(r.events.some((e) => e.type === 'http-request')).toBe(true);
    expect(r.traces[0]?.speechWait).toBeUndefined();
  });

  it('is not emitted when nothing is pending or the tool does not wait for speech', async () => {
    const acked: string[] = [];
    const acking = booking('hangup', {
      onEvent: (e) => {
        acked.push(e.type);
        // The host's player finishes each utterance the moment it starts.
        if (e.type === 'text-delta') queueMicrotask(() => acking.s.spoken(e.speechId));
      },
    });
    const r = await acking.s.run('bye');
    expect(acked).toContain('action');
    expect(acked).not.toContain('speech-wait');
    expect(r.traces[0]?.speechWait).toBeUndefined();

    // The farewell is pending, but `note` is not speak-then-act: dispatched at once, no event.
    const note = booking('note');
    const n = await note.s.run('note it');
    expect(n.events.some((e) => e.type === 'action')).toBe(true);
    expect(note.events.some((e) => e.type === 'speech-wait')).toBe(false);
  });

  it('a barge-in during the announced wait cancels the call; the event was still emitted once', async () => {
    const { s, events, waiting } = booking('hangup');
    const run = s.run('bye');
    await waiting;
    expect(events.filter((e) => e.type === 'speech-wait')).toEqual([
      expect.objectContaining({ tool: 'hangup', speechIds: ['sp_1'], maxWaitMs: 10000 }),
    ]);
    expect(s.interrupt()).toBe(true);
    const r = await run;
    expect(r.traces[0]).toMatchObject({
      errorCode: 'cancelled',
      speechWait: { outcome: 'interrupted' },
    });
  });
});
