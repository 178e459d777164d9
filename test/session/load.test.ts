import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools } from './fixtures.js';

const tools = await clinicTools();

describe('sessions under load', () => {
  it('interleaved at random, every result reaches its own session and vars never cross', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 8 }), async (s, n) => {
        const sessions = Array.from({ length: n }, (_, i) =>
          createSession({
            tools,
            id: `s${i}`,
            vars: { caller: `caller-${i}` },
            model: new ScriptedModel([
              { tool_calls: [{ name: 'to_billing' }, { name: 'note', args: { text: `n${i}` } }] },
              { text: `done ${i}` },
            ]),
            actions: {
              to_billing: (_args, ctx) =>
                s.schedule(
                  Promise.resolve({ caller: ctx.session.vars['caller'], session: ctx.session.id }),
                ),
            },
          }),
        );
        const results = await s.waitFor(Promise.all(sessions.map((session) => session.run('go'))));
        results.forEach((r, i) => {
          expect(r.content).toBe(`done ${i}`);
          expect(r.traces[0]?.output).toEqual({ caller: `caller-${i}`, session: `s${i}` });
          expect(r.traces[1]?.args).toEqual({ text: `n${i}` });
          expect(r.state.vars).toEqual({ caller: `caller-${i}` });
        });
      }),
      { numRuns: 40 },
    );
  });

  it('creating and ending a thousand sessions with calls in flight leaves no timers behind', async () => {
    const timers = (): number =>
      process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const sessions = Array.from({ length: 1000 }, () =>
      createSession({
        tools,
        model: new ScriptedModel([{ tool_calls: [{ name: 'to_billing' }] }, { text: 'ok' }]),
        actions: { to_billing: () => new Promise((r) => setTimeout(() => r('late'), 20)) },
        bridge: { thresholdSecs: 0.005, phrases: { to_billing: { '*': ['one moment'] } } },
      }),
    );
    const results = sessions.map((s) => s.run('go'));
    await new Promise((r) => setTimeout(r, 5));
    for (const s of sessions) s.interrupt();
    await Promise.all(sessions.map((s) => s.close()));
    const settled = await Promise.all(results);
    expect(settled.every((r) => r.interrupted)).toBe(true);
    // The action was not cancellable: its result is kept.
    expect(settled.every((r) => r.traces[0]?.output === 'late')).toBe(true);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
