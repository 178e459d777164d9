// A session reuses its last turn's AbortController for the next turn only when nothing can tell
// (session/turn-signals.ts): the turn was not interrupted, no handler was given its signal, and
// nothing still listens to it. Otherwise the next turn gets a signal of its own.
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import type { Model, ModelRequest, ModelStreamPart } from '../../src/models/types.js';
import { def } from '../definition/helpers.js';

/** Answers every call with one text part; records each call's signal. */
class SignalModel implements Model {
  readonly name = 'signals';
  readonly signals: AbortSignal[] = [];
  /** Called while the stream runs, with the request's signal. */
  during: (signal: AbortSignal) => void = () => undefined;

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    this.signals.push(request.signal);
    this.during(request.signal);
    await Promise.resolve();
    yield { type: 'text-delta', text: 'ok' };
    yield { type: 'finish' };
  }
}

async function plainSession(model: Model) {
  return createSession({ tools: await loadTools([]), model });
}

describe('turn signals', () => {
  it('reuse the last turn’s signal when nothing kept it', async () => {
    const model = new SignalModel();
    const session = await plainSession(model);
    await session.run('one');
    await session.run('two');
    await session.run('three');
    const [a, b, c] = model.signals;
    expect(a).toBeInstanceOf(AbortSignal);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(a?.aborted).toBe(false);
  });

  it('give the turn after an interrupted one a signal of its own, not aborted', async () => {
    const model = new SignalModel();
    const session = await plainSession(model);
    model.during = () => session.interrupt();
    const first = await session.run('one');
    expect(first.interrupted).toBe(true);
    model.during = () => undefined;
    const second = await session.run('two');
    expect(second.interrupted).toBe(false);
    expect(second.content).toBe('ok');
    const [a, b] = model.signals;
    expect(a?.aborted).toBe(true);
    expect(b).not.toBe(a);
    expect(b?.aborted).toBe(false);
  });

  it('never reuse a signal something still listens to', async () => {
    const model = new SignalModel();
    const session = await plainSession(model);
    let told = 0;
    // As an adapter whose HTTP client leaves its listener behind would.
    model.during = (signal) => signal.addEventListener('abort', () => told++);
    await session.run('one');
    model.during = () => session.interrupt();
    await session.run('two');
    const [a, b] = model.signals;
    expect(b).not.toBe(a);
    // The second turn's interruption did not reach what listened to the first turn's signal.
    expect(a?.aborted).toBe(false);
    expect(told).toBe(0);
    expect(b?.aborted).toBe(true);
  });

  it('never reuse a signal a handler was given', async () => {
    // side_effects none: the call is cancellable, so its handler gets the turn's signal.
    const tools = await loadTools([def({ options: { side_effects: 'none' } }, 'note')]);
    const model = new SignalModel();
    const handed: AbortSignal[] = [];
    let calls = 0;
    const toolModel: Model = {
      name: 'calls-once',
      stream(request) {
        // The first turn's first call asks for the tool; every other call answers.
        if (calls++ === 0)
          return (async function* (): AsyncIterable<ModelStreamPart> {
            model.signals.push(request.signal);
            yield {
              type: 'tool-call',
              call: { id: 'c1', name: 'note', arguments: '{"city":"Oslo"}' },
            };
            yield { type: 'finish' };
          })();
        return model.stream(request);
      },
    };
    const session = createSession({
      tools,
      model: toolModel,
      actions: { note: (_args, context) => void handed.push(context.signal) },
    });
    await session.run('one');
    await session.run('two');
    await session.run('three');
    // Turn one: two model calls on one signal, and the handler ran under it; turn two: a new one,
    // which turn three reuses (no handler saw it).
    const [one, oneAgain, two, three] = model.signals;
    expect(handed).toHaveLength(1);
    expect(oneAgain).toBe(one);
    expect(two).not.toBe(one);
    expect(three).toBe(two);
  });

  it('with a turn timeout, reuse the signal of turns that finish in time (no second controller)', async () => {
    const model = new SignalModel();
    const session = createSession({ tools: await loadTools([]), model, turnTimeoutMs: 5_000 });
    await session.run('one');
    await session.run('two');
    const [a, b] = model.signals;
    expect(b).toBe(a);
    expect(a?.aborted).toBe(false);
  });

  it('after a turn that timed out, give the next turn a signal of its own', async () => {
    const model = new SignalModel();
    const reasons: string[] = [];
    // The first call outlives the turn's deadline; every later call answers at once.
    const slowOnce: Model = {
      name: 'slow-once',
      stream: (request) =>
        model.signals.length === 0
          ? (async function* (): AsyncIterable<ModelStreamPart> {
              model.signals.push(request.signal);
              await new Promise((resolve) => setTimeout(resolve, 200));
              yield { type: 'text-delta', text: 'late' };
              yield { type: 'finish' };
            })()
          : model.stream(request),
    };
    const session = createSession({
      tools: await loadTools([]),
      model: slowOnce,
      turnTimeoutMs: 50,
      onEvent: (e) => {
        if (e.type === 'interrupted') reasons.push(e.reason ?? 'caller');
      },
    });
    const first = await session.run('one');
    expect(first.interrupted).toBe(true);
    const second = await session.run('two');
    expect(second.interrupted).toBe(false);
    expect(second.content).toBe('ok');
    expect(reasons).toEqual(['timeout']);
    const [a, b] = model.signals;
    expect(a?.aborted).toBe(true);
    expect((a?.reason as Error).message).toBe('the turn did not finish within 50 ms');
    expect(b).not.toBe(a);
    expect(b?.aborted).toBe(false);
  });
});
