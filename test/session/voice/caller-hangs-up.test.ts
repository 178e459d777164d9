// The caller hangs up mid-turn (a SIP BYE, a closed media stream): the host calls close() while
// a turn runs. What docs/voice.md §9 promises: a locked call still waiting for its announcement
// is never dispatched, a host action already running finishes, a lookup is cancelled, a turn
// queued behind is refused. No timers: every step waits on an event.
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../../src/definition/load.js';
import { createSession } from '../../../src/session/create-session.js';
import { SessionEndedError } from '../../../src/session/live-session.js';
import type { SessionEvent, TurnStream } from '../../../src/session/types.js';
import { ScriptedModel } from '../../../src/testing.js';
import { fn } from '../fixtures.js';

const tools = await loadTools([
  {
    type: 'action',
    tool: fn('transfer', {}),
    options: {
      speech: {
        interruptible: false,
        before: { mode: 'always', phrases: { '*': 'Let me transfer you.' } },
      },
    },
  },
  { type: 'log', tool: fn('note', { text: { type: 'string' } }) },
]);

async function drain(
  stream: TurnStream,
  onEvent: (e: SessionEvent) => void = () => {},
): Promise<string[]> {
  const types: string[] = [];
  for await (const e of stream) {
    types.push(e.type === 'tool-error' ? `tool-error ${e.code}` : e.type);
    onEvent(e);
  }
  return types;
}

describe('the caller hangs up: close() during a turn', () => {
  it('a locked call waiting for its announcement is cancelled, never dispatched', async () => {
    let transfers = 0;
    const session = createSession({
      tools,
      model: new ScriptedModel([{ tool_calls: [{ name: 'transfer', args: {} }] }]),
      speechAck: 'host',
      actions: { transfer: () => void transfers++ },
    });
    const turn = session.send('transfer me');
    let closing: Promise<void> | undefined;
    const types = await drain(turn, (e) => {
      if (e.type !== 'speech-wait') return;
      expect(session.interrupt()).toBe(false); // a barge-in cannot cancel it…
      closing = session.close(); // …a hang-up does
    });
    await closing;
    expect(types).toEqual([
      'turn-start',
      'tool-call',
      'say',
      'speech-wait',
      'tool-error cancelled',
      'interrupted',
      'turn-end',
    ]);
    expect((await turn.result).interrupted).toBe(true);
    expect(transfers).toBe(0);
    expect(session.ended).toBe(true);
  });

  it('a host action already running finishes, and its result is kept', async () => {
    let release: () => void = () => {};
    const session = createSession({
      tools,
      model: new ScriptedModel([{ tool_calls: [{ name: 'transfer', args: {} }] }]),
      actions: {
        transfer: () =>
          new Promise((resolve) => {
            release = () => resolve({ referred: true });
          }),
      },
    });
    const turn = session.send('transfer me');
    let closing: Promise<void> | undefined;
    const types = await drain(turn, (e) => {
      if (e.type !== 'action') return;
      closing = session.close();
      release();
    });
    await closing;
    expect(types).toEqual([
      'turn-start',
      'tool-call',
      'say',
      'action',
      'tool-result',
      'interrupted',
      'turn-end',
    ]);
    const result = await turn.result;
    expect(result.interrupted).toBe(true);
    expect(result.state.history.at(-1)).toMatchObject({
      role: 'tool',
      content: '{"referred":true}',
    });
  });

  it('a turn queued behind the running one is refused with SessionEndedError', async () => {
    const session = createSession({
      tools,
      model: new ScriptedModel([
        { text: ['Well, ', 'there is a lot to say.'], delayMs: 5 },
        { text: 'never' },
      ]),
    });
    const first = session.send('tell me everything');
    const second = session.send('hello?');
    const closing = drain(first, (e) => {
      if (e.type === 'text-delta') void session.close();
    });
    expect(await closing).toEqual(['turn-start', 'text-delta', 'interrupted', 'turn-end']);
    expect(await drain(second)).toEqual([]);
    await expect(second.result).rejects.toBeInstanceOf(SessionEndedError);
    expect(() => session.send('anyone?')).toThrow(SessionEndedError);
  });
});
