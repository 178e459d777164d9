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
});
