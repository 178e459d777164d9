/**
 * The REPL's `playback>` prompt (`--speech-ack host`) follows the session's `speech-wait` event:
 * it asks for exactly the utterances the call waits for, and never for speech the session does
 * not hold a call back for. Real session events, a scripted line source.
 */
import { describe, expect, it } from 'vitest';
import { SpeechAcks } from '../../src/cli/repl/speech-acks.js';
import { createNarrator } from '../../src/harness/narrator.js';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import type { SessionEvent } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';

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

describe('REPL speech acks under --speech-ack host', () => {
  it('prompts once for what the waiting call waits for, then lets it run', async () => {
    const events: string[] = [];
    let phraseSaid: (() => void) | undefined;
    const phrase = new Promise<void>((resolve) => (phraseSaid = resolve));
    const session = createSession({
      tools,
      model: new ScriptedModel([
        { text: 'Goodbye!', tool_calls: [{ name: 'hangup', args: {} }] },
        { text: 'Closed.' },
      ]),
      actions: { hangup: () => ({ status: 'ok' }) },
      speechAck: 'host',
      onEvent: (e: SessionEvent) => {
        events.push(e.type);
        if (e.type === 'say') phraseSaid?.();
      },
    });
    const printed: string[] = [];
    const prompts: string[] = [];
    // The REPL's wiring: the narrator's `wait` line carries what to type (one line, not two).
    const narrator = createNarrator({
      write: (line) => printed.push(line),
      speechIds: true,
      speechWaitHint: (e) => acks.waitHint(e),
    });
    const acks = new SpeechAcks({
      host: true,
      print: (line) => printed.push(line),
      lines: {
        next: async (prompt) => {
          prompts.push(prompt);
          if (prompts.length > 1) return ''; // Enter: let it wait
          // hangup's if_slow phrase (sp_2) is said while it waits; then the farewell is played.
          await phrase;
          return '/spoken sp_1';
        },
      },
    });
    acks.startTurn();
    const stream = session.send('bye');
    for await (const event of stream) {
      narrator.event?.(0, event);
      await acks.event(event, session);
    }
    const result = await stream.result;
    expect(printed.filter((l) => l.includes('sp_1'))).toEqual([
      'model   Goodbye! · sp_1',
      'wait    hangup until sp_1 is played (at most 10000 ms) — type /spoken sp_1 (or /spoken all) when played, or Enter to let it wait',
      '  sp_1 marked spoken',
      'heard   sp_1 played to the end',
    ]);
    // sp_2 was never waited for: no second prompt although hangup had no result yet then.
    expect(prompts).toEqual(['playback> ']);
    expect(events.indexOf('say')).toBeLessThan(events.indexOf('action'));
    expect(result.traces[0]?.speechWait).toMatchObject({ outcome: 'spoken', speechIds: ['sp_1'] });
    expect(acks.endTurn()).toEqual(['Goodbye!']);
    await session.close();
  });

  it('does not prompt when the call does not wait (nothing pending)', async () => {
    const session = createSession({
      tools,
      model: new ScriptedModel([{ tool_calls: [{ name: 'hangup', args: {} }] }, { text: 'Ok.' }]),
      actions: { hangup: () => ({ status: 'ok' }) },
      speechAck: 'host',
    });
    const prompts: string[] = [];
    const acks = new SpeechAcks({
      host: true,
      print: () => undefined,
      lines: { next: async (prompt) => (prompts.push(prompt), '') },
    });
    acks.startTurn();
    const stream = session.send('bye');
    for await (const event of stream) await acks.event(event, session);
    await stream.result;
    expect(prompts).toEqual([]);
    await session.close();
  });
});
