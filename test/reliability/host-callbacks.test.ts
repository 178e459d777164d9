/**
 * Issue 14, item 9: a host callback that throws never changes what the engine records. Two
 * `refund` actions run while `onEvent` throws on every event: history keeps both calls and
 * results, the turn resolves with `turn-end`, and each error reaches `hostError`.
 */
import { describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import type { HostErrorContext } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './helpers.js';

const tools = await loadTools([
  { type: 'action', tool: fn('refund', { order: { type: 'string' } }) },
]);

function refundTwice(): ScriptedModel {
  return new ScriptedModel([
    {
      tool_calls: [
        { name: 'refund', args: { order: 'A1' } },
        { name: 'refund', args: { order: 'B2' } },
      ],
    },
    { text: 'refunded both' },
  ]);
}

describe('a throwing onEvent (item 9)', () => {
  it('loses no executed work: history, result and events are as without it', async () => {
    const refunds: unknown[] = [];
    const reported: HostErrorContext[] = [];
    const session = createSession({
      tools,
      model: refundTwice(),
      actions: { refund: (args) => (refunds.push(args), 'ok') },
      onEvent: () => {
        throw new Error('host bug');
      },
      hostError: (error, context) => {
        expect((error as Error).message).toBe('host bug');
        reported.push(context);
      },
    });
    const result = await session.run('refund my orders');
    expect(refunds).toHaveLength(2);
    expect(result.content).toBe('refunded both');
    expect(result.events.at(-1)?.type).toBe('turn-end');
    const history = session.toJSON().history;
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(reported.map((r) => r.event)).toEqual(result.events.map((e) => e.type));
    expect(reported.every((r) => r.callback === 'onEvent')).toBe(true);
  });

  it('without hostError, a process warning reports it; a throwing hostError is ignored too', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const session = createSession({
        tools,
        model: refundTwice(),
        actions: { refund: () => 'ok' },
        onEvent: (e) => {
          if (e.type === 'tool-result') throw new Error('only on results');
        },
      });
      const result = await session.run('go');
      expect(result.traces).toHaveLength(2);
      expect(warn).toHaveBeenCalledTimes(2);
      expect(String(warn.mock.calls[0]?.[0])).toMatch(
        /onEvent threw on a tool-result event: only on results/,
      );
    } finally {
      warn.mockRestore();
    }
    const session = createSession({
      tools,
      model: refundTwice(),
      actions: { refund: () => 'ok' },
      onEvent: () => {
        throw new Error('a');
      },
      hostError: () => {
        throw new Error('b');
      },
    });
    expect((await session.run('go')).content).toBe('refunded both');
  });

  it('a streaming host sees every event even when onEvent throws', async () => {
    const session = createSession({
      tools,
      model: refundTwice(),
      actions: { refund: () => 'ok' },
      onEvent: () => {
        throw new Error('x');
      },
      hostError: () => undefined,
    });
    const seen: string[] = [];
    for await (const e of session.send('go')) seen.push(e.type);
    expect(seen.at(-1)).toBe('turn-end');
    expect(seen.filter((t) => t === 'tool-result')).toHaveLength(2);
  });
});
