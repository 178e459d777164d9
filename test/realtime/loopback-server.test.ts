/**
 * The loopback Realtime server keeps the API's one-response-at-a-time rule: a `response.create`
 * while a response runs, and a `response.cancel` with none running, are `error` events naming
 * the client event, as the API sends them. Without the first, a client sending two at once would
 * pass its tests here and fail against the real server.
 */
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  startRealtimeLoopback,
  type RealtimeLoopback,
} from '../../src/realtime/loopback-server.js';
import type { Model, ModelStreamPart } from '../../src/models/types.js';
import { until } from './helpers.js';

let server: RealtimeLoopback | undefined;
let client: WebSocket | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

/** A brain whose answer waits until `release` is called. */
function heldModel() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((r) => (release = r));
  const model: Model = {
    name: 'held',
    async *stream(): AsyncIterable<ModelStreamPart> {
      await released;
      yield { type: 'text-delta', text: 'Hi.' };
      yield { type: 'finish' };
    },
  };
  return { model, release };
}

/** A brain whose n-th answer waits until `release(n)`. */
function gatedModel() {
  const gates: (() => void)[] = [];
  const opened: Promise<void>[] = [];
  const gate = (n: number) => {
    while (opened.length <= n) opened.push(new Promise<void>((r) => gates.push(r)));
    return opened[n]!;
  };
  let calls = 0;
  const model: Model = {
    name: 'gated',
    async *stream(): AsyncIterable<ModelStreamPart> {
      await gate(calls++);
      yield { type: 'text-delta', text: 'Hi.' };
      yield { type: 'finish' };
    },
  };
  return { model, release: (n: number) => (gate(n), gates[n]!()) };
}

async function connect(model: Model) {
  server = await startRealtimeLoopback({ model });
  const received: Record<string, unknown>[] = [];
  client = new WebSocket(server.url);
  client.on('message', (data) =>
    received.push(JSON.parse(String(data)) as Record<string, unknown>),
  );
  await once(client, 'open');
  const ws = client;
  return {
    received,
    send: (event: object) => ws.send(JSON.stringify(event)),
    seen: (type: string) => received.filter((e) => e.type === type),
  };
}

describe('the loopback Realtime server', () => {
  it('refuses a response.create while a response runs, naming the event', async () => {
    const brain = heldModel();
    const rt = await connect(brain.model);
    rt.send({ type: 'response.create', event_id: 'evt_1', response: {} });
    await until(() => rt.seen('response.created').length === 1, 'response.created');
    rt.send({ type: 'response.create', event_id: 'evt_2', response: {} });
    await until(() => rt.seen('error').length === 1, 'error');
    expect(rt.seen('error')[0]!.error).toMatchObject({
      code: 'conversation_already_has_active_response',
      event_id: 'evt_2',
    });
    brain.release();
    await until(() => rt.seen('response.done').length === 1, 'response.done');
    expect(rt.seen('response.created')).toHaveLength(1);
    // Once it is done, the next one is taken.
    rt.send({ type: 'response.create', event_id: 'evt_3', response: {} });
    await until(() => rt.seen('response.done').length === 2, 'second response.done');
    expect(rt.seen('error')).toHaveLength(1);
  });

  it('answers a response.cancel with no response running with an error', async () => {
    const rt = await connect(heldModel().model);
    rt.send({ type: 'response.cancel', event_id: 'evt_c' });
    await until(() => rt.seen('error').length === 1, 'error');
    expect(rt.seen('error')[0]!.error).toMatchObject({
      code: 'response_cancel_not_active',
      event_id: 'evt_c',
    });
  });

  it("the caller's speech cancels the running response, which no longer counts as running", async () => {
    const brain = gatedModel();
    const rt = await connect(brain.model);
    rt.send({ type: 'response.create', event_id: 'evt_1', response: {} });
    await until(() => rt.seen('response.created').length === 1, 'response.created');
    server!.callerSays('Actually, wait.');
    await until(() => rt.seen('response.created').length === 2, 'the speech’s response');
    const types = rt.received.map((e) => e.type);
    expect(types.indexOf('input_audio_buffer.speech_started')).toBeGreaterThan(-1);
    expect(types.indexOf('input_audio_buffer.speech_started')).toBeLessThan(
      types.lastIndexOf('response.created'),
    );
    brain.release(0);
    await until(() => rt.seen('response.done').length === 1, 'the first response.done');
    expect(rt.seen('response.done')[0]!.response).toMatchObject({ status: 'cancelled' });
    // The speech's response still runs: another response.create is refused.
    rt.send({ type: 'response.create', event_id: 'evt_3', response: {} });
    await until(() => rt.seen('error').length === 1, 'error');
    expect(rt.seen('error')[0]!.error).toMatchObject({ event_id: 'evt_3' });
    brain.release(1);
    await until(() => rt.seen('response.done').length === 2, 'the second response.done');
  });

  it('a response cancelled after its model made a call sends no call', async () => {
    const model: Model = {
      name: 'calls-then-waits',
      async *stream(request): AsyncIterable<ModelStreamPart> {
        yield { type: 'tool-call', call: { id: 'call_1', name: 'note', arguments: '{}' } };
        await new Promise<void>((r) => request.signal?.addEventListener('abort', () => r()));
        yield { type: 'finish' };
      },
    };
    const rt = await connect(model);
    rt.send({ type: 'response.create', event_id: 'evt_1', response: {} });
    await until(() => rt.seen('response.created').length === 1, 'response.created');
    rt.send({ type: 'response.cancel', event_id: 'evt_2' });
    await until(() => rt.seen('response.done').length === 1, 'response.done');
    expect(rt.seen('response.done')[0]!.response).toMatchObject({
      status: 'cancelled',
      output: [],
    });
    expect(rt.seen('response.function_call_arguments.done')).toEqual([]);
  });
});
