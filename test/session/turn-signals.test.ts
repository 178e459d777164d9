// A turn's AbortController goes back to a pool shared by every session of the process, for a
// later turn, only when nothing can tell (session/turn-signals.ts): the turn was not interrupted
// and nothing but the engine's own idle watch still listens to it. Otherwise it is dropped.
import { describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import {
  MAX_SPARE_CONTROLLERS,
  releaseTurnController,
  takeTurnController,
  TurnController,
} from '../../src/session/turn-signals.js';
import { isAborted, NEVER_ABORTED } from '../../src/handlers/endpoint/deadline.js';
import type { Model, ModelRequest, ModelStreamPart } from '../../src/models/types.js';
import { def } from '../definition/helpers.js';
import { startTestServer } from '../handlers/test-server.js';

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

  it('reuse the signal of a turn whose cancellable call ran: the action got a signal of its own', async () => {
    // side_effects none: the call is cancellable, so interrupting the turn would abort it.
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
    model.during = () => session.interrupt();
    const three = await session.run('three');
    // Turn one: two model calls on one signal; turns two and three reuse it.
    const [one, oneAgain, two, third] = model.signals;
    expect(oneAgain).toBe(one);
    expect(two).toBe(one);
    expect(third).toBe(one);
    expect(three.interrupted).toBe(true);
    // The action's signal was its call's own: turn three's interruption did not reach it.
    expect(handed).toHaveLength(1);
    expect(handed[0]).not.toBe(one);
    expect(handed[0]?.aborted).toBe(false);
  });

  it('reuse the signal of a turn whose GET lookup ran, and cancel a later turn’s lookup with it', async () => {
    const server = await startTestServer();
    try {
      let release: (() => void) | undefined;
      server.route('/status', (req, res) => {
        // The first lookup answers at once; a later one waits until the test lets it go.
        const answer = () =>
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        if (server.requests.length === 1) answer();
        else release = answer;
      });
      const tools = await loadTools([
        {
          type: 'endpoint',
          tool: {
            type: 'function',
            function: {
              name: 'status',
              description: 'Order status',
              parameters: { type: 'object', properties: {} },
            },
          },
          endpoint: { url: `${server.origin}/status`, method: 'get', argument_location: 'query' },
        },
      ]);
      const signals: AbortSignal[] = [];
      const lookup = (request: ModelRequest, id: string): AsyncIterable<ModelStreamPart> =>
        (async function* () {
          signals.push(request.signal);
          yield { type: 'tool-call', call: { id, name: 'status', arguments: '{}' } };
          yield { type: 'finish' };
        })();
      const answer = (request: ModelRequest): AsyncIterable<ModelStreamPart> =>
        (async function* () {
          signals.push(request.signal);
          yield { type: 'text-delta', text: 'done' };
          yield { type: 'finish' };
        })();
      let n = 0;
      const model: Model = {
        name: 'lookups',
        stream: (request) => (n++ % 2 === 0 ? lookup(request, `c${n}`) : answer(request)),
      };
      const session = createSession({ tools, model });
      const first = await session.run('one');
      expect(first.traces[0]?.isError).not.toBe(true);
      const second = session.run('two');
      await vi.waitFor(() => expect(release).toBeDefined());
      session.interrupt();
      const result = await second;
      release?.();
      expect(result.interrupted).toBe(true);
      expect(result.traces[0]?.errorCode).toBe('cancelled');
      // Turn one's controller (its lookup done) served turn two, whose interruption cancelled
      // turn two's lookup through it.
      expect(signals[2]).toBe(signals[0]);
      expect(signals[0]?.aborted).toBe(true);
    } finally {
      await server.close();
    }
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

  it('serve another session’s next turn with a signal one session gave back, never one in use', async () => {
    const model = new SignalModel();
    const a = await plainSession(model);
    const b = await plainSession(model);
    await a.run('one');
    await b.run('two');
    const [first, second] = model.signals;
    expect(second).toBe(first);
    // Two turns at once: each its own signal.
    let inside = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const gated: Model = {
      name: 'gated',
      async *stream(request) {
        model.signals.push(request.signal);
        if (++inside === 2) release();
        await gate;
        yield { type: 'text-delta', text: 'ok' };
        yield { type: 'finish' };
      },
    };
    const c = await plainSession(gated);
    const d = await plainSession(gated);
    await Promise.all([c.run('three'), d.run('four')]);
    const [third, fourth] = model.signals.slice(2);
    expect(third).not.toBe(fourth);
  });

  it('keep an interruption to the session it was meant for', async () => {
    const model = new SignalModel();
    const a = await plainSession(model);
    const b = await plainSession(model);
    await a.run('one');
    model.during = () => b.interrupt();
    const interrupted = await b.run('two');
    expect(interrupted.interrupted).toBe(true);
    model.during = () => undefined;
    const next = await a.run('three');
    expect(next.interrupted).toBe(false);
    expect(next.content).toBe('ok');
    const [one, two, three] = model.signals;
    // b's turn ran on the signal a gave back; once aborted it left the pool for good.
    expect(two).toBe(one);
    expect(two?.aborted).toBe(true);
    expect(three).not.toBe(two);
    expect(three?.aborted).toBe(false);
  });

  it('keep at most MAX_SPARE_CONTROLLERS given back', () => {
    const count = MAX_SPARE_CONTROLLERS + 44;
    const first = Array.from({ length: count }, () => takeTurnController());
    for (const c of first) releaseTurnController(c);
    const seen = new Set(first);
    const again = Array.from({ length: count }, () => takeTurnController());
    expect(again.filter((c) => seen.has(c))).toHaveLength(MAX_SPARE_CONTROLLERS);
    expect(new Set(again).size).toBe(count);
  });
});

describe('a turn controller', () => {
  it('knows it stopped exactly when its signal aborted, with the reason given', () => {
    const controller = new TurnController();
    const signal = controller.signal;
    expect(controller.signal).toBe(signal);
    expect(controller.stopped).toBe(false);
    expect(signal.aborted).toBe(false);
    const reason = new Error('interrupted');
    controller.abort(reason);
    expect(controller.stopped).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it('is not given back to the pool once stopped', () => {
    const controller = takeTurnController();
    controller.abort();
    releaseTurnController(controller);
    const taken = Array.from({ length: MAX_SPARE_CONTROLLERS }, () => takeTurnController());
    expect(taken).not.toContain(controller);
    for (const c of taken) releaseTurnController(c);
  });

  it('stops the turn loop between stream parts: no part after an interruption is kept', async () => {
    // Interrupts while the stream runs; the parts after it must not reach the answer.
    class TwoParts implements Model {
      readonly name = 'two-parts';
      constructor(readonly during: () => void) {}
      async *stream(): AsyncIterable<ModelStreamPart> {
        yield { type: 'text-delta', text: 'first ' };
        this.during();
        await Promise.resolve();
        yield { type: 'text-delta', text: 'second' };
        yield { type: 'finish' };
      }
    }
    let session: Awaited<ReturnType<typeof plainSession>> | undefined;
    session = await plainSession(new TwoParts(() => session?.interrupt()));
    const result = await session.run('hello');
    expect(result.interrupted).toBe(true);
    expect(result.content).toBe('first ');
  });
});

describe('isAborted', () => {
  it('answers false for the never-aborted signal and asks any other', () => {
    expect(isAborted(NEVER_ABORTED)).toBe(false);
    const controller = new AbortController();
    expect(isAborted(controller.signal)).toBe(false);
    controller.abort();
    expect(isAborted(controller.signal)).toBe(true);
  });
});
