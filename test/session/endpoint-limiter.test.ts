/**
 * The per-session endpoint concurrency limiter on its own, with a handler that counts what reaches
 * it: a call that must not start (its signal already aborted, or its session closed while it
 * waited for a slot) is answered `cancelled` by the limiter itself and never reaches the handler,
 * whatever the handler would do with it.
 */
import { describe, expect, it } from 'vitest';
import { limitEndpointCalls, type ClosableHandler } from '../../src/session/endpoint-limiter.js';
import type { HandlerContext, HandlerOutcome } from '../../src/handlers/types.js';

/** A handler whose calls stay open until `finish()`; it counts the calls it was given. */
function heldHandler() {
  const finishers: (() => void)[] = [];
  let calls = 0;
  const handler: ClosableHandler = {
    kind: 'endpoint',
    execute: () => {
      calls++;
      return new Promise<HandlerOutcome>((resolve) =>
        finishers.push(() =>
          resolve({
            type: 'success',
            output: 'ok',
            effects: [],
            requests: [],
            startedAt: 0,
            finishedAt: 0,
          } as unknown as HandlerOutcome),
        ),
      );
    },
    close: () => Promise.resolve(),
  };
  return { handler, calls: () => calls, finishAll: () => finishers.splice(0).forEach((f) => f()) };
}

const context = (signal: AbortSignal = new AbortController().signal): HandlerContext =>
  ({ callId: 'c', signal }) as unknown as HandlerContext;

describe('limitEndpointCalls', () => {
  it('answers a call whose signal has already aborted without taking a free slot', async () => {
    const inner = heldHandler();
    const limited = limitEndpointCalls(inner.handler, 2, () => 0);
    const controller = new AbortController();
    controller.abort();
    const outcome = await limited.execute({}, context(controller.signal));
    expect(outcome.type).toBe('error');
    expect(JSON.stringify(outcome)).toContain('cancelled');
    expect(inner.calls()).toBe(0);
  });

  it('sends none of the calls waiting for a slot once the session closes', async () => {
    const inner = heldHandler();
    const limited = limitEndpointCalls(inner.handler, 1, () => 0);
    const first = limited.execute({}, context());
    const waiting = [limited.execute({}, context()), limited.execute({}, context())];
    await limited.close();
    inner.finishAll();
    await first;
    const outcomes = await Promise.all(waiting);
    expect(outcomes.map((o) => o.type)).toEqual(['error', 'error']);
    expect(outcomes.every((o) => JSON.stringify(o).includes('cancelled'))).toBe(true);
    expect(inner.calls()).toBe(1);
  });

  it('runs at most max at once, the others in call order as slots free', async () => {
    const inner = heldHandler();
    const limited = limitEndpointCalls(inner.handler, 2, () => 0);
    const all = [1, 2, 3, 4].map(() => limited.execute({}, context()));
    expect(inner.calls()).toBe(2);
    inner.finishAll();
    await Promise.all(all.slice(0, 2));
    expect(inner.calls()).toBe(4);
    inner.finishAll();
    await Promise.all(all);
  });
});
