// wsRealtimeConnection over a stand-in socket: a message that is not JSON is one `error` and no
// `event` (a listener would otherwise get `undefined` as a server event), JSON is one `event`.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { wsRealtimeConnection, type WsSocket } from '../../src/entries/realtime.js';

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
