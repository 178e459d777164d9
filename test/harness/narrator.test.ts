import { describe, expect, it } from 'vitest';
import { createNarrator } from '../../src/harness/narrator.js';
import type { SessionEvent } from '../../src/session/types.js';
import { NO_TIMINGS } from '../../src/observability/turn-tracing.js';

function narrate(events: readonly SessionEvent[]): string[] {
  const lines: string[] = [];
  const n = createNarrator({ write: (l) => lines.push(l) });
  for (const e of events) n.event?.(0, e);
  return lines;
}

describe('narrator', () => {
  it('prints streamed text once, also when a barge-in flushed it before turn-end', () => {
    const lines = narrate([
      { type: 'text-delta', text: 'Let me ', speechId: 'sp_1' },
      { type: 'text-delta', text: 'think', speechId: 'sp_1' },
      { type: 'interrupted' },
      { type: 'turn-end', content: 'Let me think', timings: NO_TIMINGS },
    ]);
    expect(lines.filter((l) => l.includes('Let me think'))).toEqual(['model   Let me think']);
    expect(lines.some((l) => l.includes('barges in'))).toBe(true);
  });

  it("prints turn-end's content when nothing was streamed", () => {
    expect(narrate([{ type: 'turn-end', content: 'Hello', timings: NO_TIMINGS }])).toEqual([
      'model   Hello',
    ]);
  });

  it('streamed text of one turn does not hide the content of the next', () => {
    const lines = narrate([
      { type: 'text-delta', text: 'One', speechId: 'sp_1' },
      { type: 'turn-end', content: 'One', timings: NO_TIMINGS },
      { type: 'turn-end', content: 'Two', timings: NO_TIMINGS },
    ]);
    expect(lines).toEqual(['model   One', 'model   Two']);
  });

  it('says when a call starts waiting for playback, and for what', () => {
    const lines = narrate([
      { type: 'text-delta', text: 'Bye!', speechId: 'sp_1' },
      { type: 'speech-wait', callId: 'c1', tool: 'hangup', speechIds: ['sp_1'], maxWaitMs: 10000 },
      {
        type: 'speech-wait',
        callId: 'c2',
        tool: 'transfer',
        speechIds: ['sp_1', 'sp_2'],
        maxWaitMs: 500,
      },
    ]);
    expect(lines).toEqual([
      'model   Bye!',
      'wait    hangup until sp_1 is played (at most 10000 ms)',
      'wait    transfer until sp_1, sp_2 are played (at most 500 ms)',
    ]);
  });

  it("appends the reader's hint to a wait line, and nothing when it has none", () => {
    const lines: string[] = [];
    const n = createNarrator({
      write: (l) => lines.push(l),
      speechWaitHint: (e) => (e.tool === 'hangup' ? 'type /spoken sp_1' : undefined),
    });
    for (const [callId, tool] of [
      ['c1', 'hangup'],
      ['c2', 'transfer'],
    ] as const)
      n.event?.(0, { type: 'speech-wait', callId, tool, speechIds: ['sp_1'], maxWaitMs: 100 });
    expect(lines).toEqual([
      'wait    hangup until sp_1 is played (at most 100 ms) — type /spoken sp_1',
      'wait    transfer until sp_1 is played (at most 100 ms)',
    ]);
  });
});
