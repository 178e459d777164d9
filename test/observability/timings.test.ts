import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import { createSession } from '../../src/session/create-session.js';
import { runFixture } from '../../src/harness/run-fixture.js';
import { jsonReport } from '../../src/harness/reporters/json.js';
import { summarize } from '../../src/harness/fixture-result.js';
import { timingLine } from '../../src/harness/narrator.js';
import type { SessionEvent } from '../../src/session/types.js';

describe('latency report per turn', () => {
  it('reports model time to first token and tool call, each tool with its queueing, phrases, total', async () => {
    let now = 1_000;
    const tools = await loadTools([
      {
        type: 'action',
        tool: {
          type: 'function',
          function: { name: 'slow', parameters: { type: 'object', properties: {} } },
        },
      },
    ]);
    const s = createSession({
      tools,
      model: new ScriptedModel([
        { text: 'One moment.', tool_calls: [{ name: 'slow', args: {}, id: 's1' }] },
        { text: 'Done.' },
      ]),
      actions: {
        slow: () => {
          now += 250;
          return 'ok';
        },
      },
      _internal: { now: () => now },
    });
    const r = await s.run('go');
    expect(r.timings).toMatchObject({
      totalMs: 250,
      modelTimeToFirstTokenMs: 0,
      modelTimeToFirstToolCallMs: 0,
      modelCalls: [{ durationMs: 250 }, { durationMs: 0 }],
      tools: [{ callId: 's1', tool: 'slow', durationMs: 250, queuedMs: 0 }],
      phrasesSpoken: 0,
    });
    const end = r.events.find((e) => e.type === 'turn-end');
    expect(end).toMatchObject({ timings: r.timings });
    expect(timingLine(r.timings)).toBe(
      'total 250 ms · model first token 0 ms · first tool call 0 ms · 2 model call(s) 250 ms · slow 250 ms',
    );
    await s.close();
  });

  it('reports the tokens of each model call and of the turn, on the result and on turn-end', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: { type: 'function', function: { name: 'look', parameters: { type: 'object' } } },
      },
    ]);
    const s = createSession({
      tools,
      model: new ScriptedModel([
        { tool_calls: [{ name: 'look', args: {} }], usage: { inputTokens: 30, outputTokens: 4 } },
        { text: 'none reported' },
        { text: 'Done.', usage: { inputTokens: 50, outputTokens: 6 } },
      ]),
      actions: { look: () => 'seen' },
    });
    const first = await s.run('go');
    expect(first.timings.modelCalls.map((c) => c.usage)).toEqual([
      { inputTokens: 30, outputTokens: 4 },
      undefined,
    ]);
    expect(first.timings.usage).toEqual({ inputTokens: 30, outputTokens: 4 });
    expect(first.usage).toEqual(first.timings.usage);
    // Per turn: the next turn starts from zero.
    const second = await s.run('again');
    expect(second.timings.usage).toEqual({ inputTokens: 50, outputTokens: 6 });
    const end = second.events.find((e) => e.type === 'turn-end');
    expect(end?.type === 'turn-end' && end.timings?.usage).toEqual({
      inputTokens: 50,
      outputTokens: 6,
    });
    await s.close();
  });

  it('every turn-end event carries its timings, interrupted turns included, typed as present', async () => {
    // Type-level half (`npm test` type-checks this file): a host reads `timings` off the event
    // without `?.`, as docs/observability.md says it is there.
    const totalOf = (e: Extract<SessionEvent, { type: 'turn-end' }>): number => e.timings.totalMs;
    const s = createSession({
      tools: await loadTools([]),
      model: new ScriptedModel([{ text: 'Hello.' }, { text: ['Well, ', 'more.'], delayMs: 5 }]),
    });
    const ends: number[] = [];
    const onEnd = (e: SessionEvent): void => {
      if (e.type === 'turn-end') ends.push(totalOf(e));
    };
    for await (const e of s.send('hi')) onEnd(e);
    for await (const e of s.send('tell me')) {
      onEnd(e);
      if (e.type === 'text-delta') s.interrupt();
    }
    expect(ends).toHaveLength(2);
    expect(ends.every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
    await s.close();
  });

  it('counts bridge phrases and is in the harness JSON report', async () => {
    const result = await runFixture('fixtures/conversations/bridge-phrase.yaml');
    expect(result.status).toBe('passed');
    const phrases = result.turns.map((t) => t.timings.phrasesSpoken);
    expect(phrases.some((n) => n > 0)).toBe(true);
    const doc = JSON.parse(jsonReport(summarize([result], 1))) as {
      results: { timings: { phrasesSpoken: number; totalMs: number }[] }[];
    };
    expect(doc.results[0]!.timings).toHaveLength(result.turns.length);
    expect(doc.results[0]!.timings[0]!.totalMs).toBeGreaterThan(0);
  });
});
