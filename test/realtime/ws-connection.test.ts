// wsRealtimeConnection over a stand-in socket: a message that is not JSON is one `error` and no
// `event` (a listener would otherwise get `undefined` as a server event), JSON is one `event`.
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  connectRealtime,
  wsRealtimeConnection,
  type WsSocket,
} from '../../src/entries/realtime.js';

function fakeSocket(): WsSocket & { emitter: EventEmitter; sent: string[] } {
  const emitter = new EventEmitter();
  const sent: string[] = [];
  return {
    emitter,
    sent,
    readyState: 1,
    on: (event: string, listener: (...args: never[]) => void) =>
      emitter.on(event, listener as (...args: unknown[]) => void),
    off: (event: string, listener: () => void) => emitter.off(event, listener),
    send: (data: string) => void sent.push(data),
    close: () => undefined,
    pause: () => undefined,
    resume: () => undefined,
  } as WsSocket & { emitter: EventEmitter; sent: string[] };
}

describe('wsRealtimeConnection', () => {
  it('makes a message that is not JSON one error and no event; JSON one event', () => {
    const socket = fakeSocket();
    const connection = wsRealtimeConnection(socket);
    const events: unknown[] = [];
    const errors: Error[] = [];
    connection.on('event', (e) => events.push(e));
    connection.on('error', (e) => errors.push(e as Error));
    socket.emitter.emit('message', Buffer.from('{not json'));
    expect(events).toEqual([]);
    expect(errors.map((e) => e.message)).toEqual([
      'the Realtime server sent an event that is not JSON',
    ]);
    socket.emitter.emit('message', Buffer.from('{"type":"session.created"}'));
    expect(events).toEqual([{ type: 'session.created' }]);
    connection.send({ type: 'response.cancel' });
    expect(socket.sent).toEqual(['{"type":"response.cancel"}']);
  });
});

describe('connectRealtime when the server will not open a socket', () => {
  it('a refusal names the server, its status and its reason, the key scrubbed and the query left out', async () => {
    const server = createServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"Incorrect API key provided: sk-live-1234567890."}}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const error = await connectRealtime({
        url: `ws://127.0.0.1:${port}/v1/realtime?model=gpt-realtime&api-key=sk-query-0987654321`,
        headers: { Authorization: 'Bearer sk-live-1234567890' },
      }).catch((e: unknown) => e as Error);
      expect((error as Error).message).toBe(
        `connectRealtime: the Realtime server at ws://127.0.0.1:${port}/v1/realtime refused the connection: HTTP 401 (Incorrect API key provided: [redacted].)`,
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('an address nobody listens on names the server and the cause', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    await expect(connectRealtime({ url: `ws://127.0.0.1:${port}/v1/realtime` })).rejects.toThrow(
      `connectRealtime: could not reach the Realtime server at ws://127.0.0.1:${port}/v1/realtime: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});
