/** The waterfall of one turn, from events alone: model calls, attempts, failures, speech. */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionEvent } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { runFixtureForStudio } from '../../src/studio/fixture-runs.js';
import { buildTimelineTurn, type TimedEvent } from '../../src/studio/timeline.js';
import { NO_TIMINGS } from '../../src/observability/turn-tracing.js';

const request = (attempt: number, status?: number) => ({
  method: 'GET',
  url: 'https://api.test/slots',
  headers: {},
  attempt,
  ...(status !== undefined ? { status } : {}),
});

const at = (atMs: number, event: SessionEvent): TimedEvent => ({ atMs, event });

describe('buildTimelineTurn', () => {
  const events: TimedEvent[] = [
    at(0, { type: 'turn-start', turn: 1, user: 'slots?' }),
    at(100, { type: 'tool-call', callId: 'c1', tool: 'slots', rawArguments: '{}', args: {} }),
    at(101, {
      type: 'say',
      text: 'One moment.',
      source: 'pre-tool',
      tool: 'slots',
      speechId: 'sp_1',
    }),
    at(102, { type: 'http-request', callId: 'c1', request: request(1) }),
    at(150, { type: 'http-response', callId: 'c1', request: request(1, 503) }),
    at(160, { type: 'http-request', callId: 'c1', request: request(2) }),
    at(190, { type: 'http-response', callId: 'c1', request: request(2, 503) }),
    at(200, { type: 'spoken', speechId: 'sp_1' }),
    at(201, {
      type: 'tool-error',
      callId: 'c1',
      tool: 'slots',
      code: 'http_status',
      message: 'HTTP 503',
      durationSecs: 0.1,
      retryable: true,
    }),
    at(300, { type: 'text-delta', text: 'Sorry, ', speechId: 'sp_2' }),
    at(310, { type: 'text-delta', text: 'try later.', speechId: 'sp_2' }),
    at(320, { type: 'turn-end', content: 'Sorry, try later.', timings: NO_TIMINGS }),
  ];
  const turn = buildTimelineTurn({
    index: 0,
    user: 'slots?',
    running: false,
    events,
    exchanges: [
      {
        request: { method: 'GET', url: 'https://api.test/slots', headers: {} },
        response: { status: 503, body: 'busy' },
      },
      {
        request: { method: 'GET', url: 'https://api.test/slots', headers: {} },
        response: { status: 503, body: 'still busy' },
      },
    ],
    timings: {
      totalMs: 320,
      modelCalls: [{ durationMs: 90 }, { durationMs: 110 }],
      tools: [{ callId: 'c1', tool: 'slots', durationMs: 100, queuedMs: 2 }],
      phrasesSpoken: 1,
      usage: { inputTokens: 0, outputTokens: 0 },
    },
  });
  const byId = new Map(turn.items.map((i) => [i.id, i]));

  it('draws each model call: the first from the start, the next once the results are in', () => {
    expect(byId.get('model-0')).toMatchObject({ startMs: 0, endMs: 90 });
    expect(byId.get('model-1')).toMatchObject({ startMs: 201, endMs: 311 });
  });

  it('draws each HTTP attempt with its status code and its own recorded body', () => {
    expect(byId.get('http-c1-1')).toMatchObject({
      startMs: 102,
      endMs: 150,
      code: 'http_503',
      depth: 1,
    });
    expect(byId.get('http-c1-2')!.label).toContain('(attempt 2)');
    expect(byId.get('http-c1-2')!.detail['response']).toEqual({ status: 503, body: 'still busy' });
  });

  it('gives a failed call its code and whose fault it is', () => {
    expect(byId.get('tool-c1')).toMatchObject({ startMs: 100, endMs: 201, code: 'http_status' });
    expect(byId.get('tool-c1')!.detail).toMatchObject({ blame: 'service', queuedMs: 2 });
  });

  it('ends a phrase when it was acknowledged, and joins a reply’s deltas', () => {
    expect(byId.get('speech-sp_1')).toMatchObject({ startMs: 101, endMs: 200, depth: 1 });
    expect(byId.get('speech-sp_2')).toMatchObject({
      label: 'Sorry, try later.',
      startMs: 300,
      endMs: 310,
    });
  });

  it('lists the items in time order', () => {
    const starts = turn.items.map((i) => i.startMs!);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(turn.totalMs).toBe(320);
  });
});

describe('buildTimelineTurn with --speech-ack host', () => {
  const start: TimedEvent[] = [
    at(0, { type: 'turn-start', turn: 1, user: 'bye' }),
    at(5, { type: 'text-delta', text: 'Let me close this.', speechId: 'sp_1' }),
    at(10, { type: 'tool-call', callId: 'c1', tool: 'hangup', rawArguments: '{}', args: {} }),
    at(11, { type: 'tool-call', callId: 'c2', tool: 'lookup', rawArguments: '{}', args: {} }),
    at(12, { type: 'say', text: 'Goodbye!', source: 'pre-tool', tool: 'hangup', speechId: 'sp_2' }),
    // The session's decision: hangup waits for both (lookup does not wait for speech).
    at(13, {
      type: 'speech-wait',
      callId: 'c1',
      tool: 'hangup',
      speechIds: ['sp_1', 'sp_2'],
      maxWaitMs: 10000,
    }),
  ];
  const draw = (events: readonly TimedEvent[], speechAck: 'host' | 'auto') =>
    new Map(
      buildTimelineTurn({
        index: 0,
        user: 'bye',
        running: true,
        events,
        exchanges: [],
        speechAck,
      }).items.map((i) => [i.id, i]),
    );

  it('marks utterances waiting for playback and the speak-then-act call they hold', () => {
    const items = draw(start, 'host');
    expect(items.get('speech-sp_1')?.playback).toBe('waiting');
    expect(items.get('speech-sp_2')?.playback).toBe('waiting');
    expect(items.get('tool-c1')?.heldBySpeech).toBe(true);
    // A tool that does not wait for speech is running, not held.
    expect(items.get('tool-c2')?.heldBySpeech).toBeUndefined();
  });

  it('a call is held until every utterance before it and its own announcement is played', () => {
    const one = draw([...start, at(20, { type: 'spoken', speechId: 'sp_1' })], 'host');
    expect(one.get('speech-sp_1')?.playback).toBe('played');
    expect(one.get('tool-c1')?.heldBySpeech).toBe(true);
    const both = draw(
      [
        ...start,
        at(20, { type: 'spoken', speechId: 'sp_1' }),
        at(21, { type: 'spoken', speechId: 'sp_2' }),
      ],
      'host',
    );
    expect(both.get('speech-sp_2')?.playback).toBe('played');
    expect(both.get('tool-c1')?.heldBySpeech).toBeUndefined();
  });

  it('a call with its result is not held, and without host acknowledgement nothing is marked', () => {
    const done = draw(
      [
        ...start,
        at(30, {
          type: 'tool-result',
          callId: 'c1',
          tool: 'hangup',
          output: {},
          durationSecs: 0,
        }),
      ],
      'host',
    );
    expect(done.get('tool-c1')?.heldBySpeech).toBeUndefined();
    const auto = draw(start, 'auto');
    expect(auto.get('speech-sp_1')?.playback).toBeUndefined();
    expect(auto.get('tool-c1')?.heldBySpeech).toBeUndefined();
  });
});

describe("buildTimelineTurn follows the session's speech-wait, never a rule of its own", () => {
  const draw = (events: readonly SessionEvent[]) =>
    new Map(
      buildTimelineTurn({
        index: 0,
        user: 'bye',
        running: true,
        events: events.map((event, i) => at(i, event)),
        exchanges: [],
        speechAck: 'host',
      }).items.map((i) => [i.id, i]),
    );

  it('shows what the call waits for and releases it when the session does', async () => {
    // hangup waits for the farewell; its if_slow phrase comes while it waits, and the session
    // does not wait for that one: once the farewell is played, hangup runs.
    const tools = await loadTools([
      {
        type: 'action',
        tool: {
          type: 'function',
          function: { name: 'hangup', parameters: { type: 'object', properties: {} } },
        },
        options: {
          speech: { before: { mode: 'if_slow', delay_ms: 0, phrases: { en: 'Hanging up.' } } },
        },
      },
    ]);
    const events: SessionEvent[] = [];
    const seen = new Map<string, () => void>();
    const next = (type: string) => new Promise<void>((resolve) => seen.set(type, resolve));
    let finish: ((value: unknown) => void) | undefined;
    const dispatched = next('action');
    const waiting = next('speech-wait');
    const said = next('say');
    const s = createSession({
      tools,
      model: new ScriptedModel([
        { text: 'Goodbye!', tool_calls: [{ name: 'hangup', args: {} }] },
        { text: 'Closed.' },
      ]),
      actions: { hangup: () => new Promise((resolve) => (finish = resolve)) },
      speechAck: 'host',
      onEvent: (e) => {
        events.push(e);
        seen.get(e.type)?.();
      },
    });
    const run = s.run('bye');
    await waiting;
    const call = events.find((e) => e.type === 'tool-call');
    const id = `tool-${call?.type === 'tool-call' ? call.callId : ''}`;
    expect(draw(events).get(id)).toMatchObject({
      heldBySpeech: true,
      detail: { waitsForSpeech: { speechIds: ['sp_1'], maxWaitMs: 10000 } },
    });
    await said;
    expect(draw(events).get('speech-sp_2')).toMatchObject({ label: 'pre-tool: Hanging up.' });
    expect(draw(events).get(id)?.heldBySpeech).toBe(true);
    s.spoken('sp_1');
    await dispatched;
    // Running, not held: its own if_slow phrase (sp_2) is still unplayed, but it never waited for it.
    expect(draw(events).get(id)?.heldBySpeech).toBeUndefined();
    finish?.({ status: 'ok' });
    await run;
    await s.close();
  });

  it('a call without a speech-wait is never held, whatever its tool or the speech around it', () => {
    const items = draw([
      { type: 'text-delta', text: 'Bye.', speechId: 'sp_1' },
      { type: 'tool-call', callId: 'c1', tool: 'hangup', rawArguments: '{}', args: {} },
      { type: 'say', text: 'Bye!', source: 'pre-tool', tool: 'hangup', speechId: 'sp_2' },
    ]);
    expect(items.get('speech-sp_2')?.playback).toBe('waiting');
    expect(items.get('tool-c1')?.heldBySpeech).toBeUndefined();
  });
});

describe('fixture runs drawn in the studio', () => {
  const itemsOf = async (file: string) => {
    const view = await runFixtureForStudio({ file: `fixtures/conversations/${file}` });
    expect(view.status).toBe('passed');
    return new Map(view.turns[0]!.items.map((i) => [i.id, i]));
  };

  it('a fixture that acknowledges playback itself shows each utterance played or still waiting', async () => {
    expect((await itemsOf('voice-hangup-after-farewell.yaml')).get('speech-sp_1')?.playback).toBe(
      'played',
    );
    // Interrupted while the hang-up waited: the farewell was never played.
    expect(
      (await itemsOf('voice-barge-in-while-hangup-waits.yaml')).get('speech-sp_1')?.playback,
    ).toBe('waiting');
  });

  it('a fixture where speech counts as played when emitted shows no marks', async () => {
    const items = await itemsOf('voice-pre-tool-speech.yaml');
    expect([...items.values()].some((i) => i.playback !== undefined)).toBe(false);
  });
});
