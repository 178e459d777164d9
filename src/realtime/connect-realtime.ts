/**
 * A {@link RealtimeConnection} over a plain `ws` WebSocket: for hosts that open their own socket
 * to a Realtime endpoint (a proxy, Azure, a `ws:` test server), and for the harness. The `openai`
 * package's `OpenAIRealtimeWS` needs no wrapping: it already has this shape.
 */
import { checkConnectOptions } from './check-realtime-options.js';
import { EventEmitter } from 'node:events';
import { argumentError } from '../option-checks.js';
import WebSocket from 'ws';
import type { RealtimeConnection, RealtimeSendable } from './types.js';

/**
 * What this module uses of a `ws` WebSocket, as a structural type: the published declarations
 * then name no `ws` type, so a TypeScript host compiles without `@types/ws` (a devDependency
 * here). A `ws` WebSocket fits as it is.
 */
export interface WsSocket {
  /** 0 while connecting, 1 when open. */
  readonly readyState: number;
  on(event: 'message', listener: (data: unknown) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'open' | 'close', listener: () => void): unknown;
  off(event: 'open' | 'close', listener: () => void): unknown;
  send(data: string): void;
  close(): void;
  /** Stops reading (a flood of server events is read in slices). */
  pause(): void;
  resume(): void;
}

/** A connection that also closes its socket. */
export interface ClosableRealtimeConnection extends RealtimeConnection {
  readonly socket: WsSocket;
  close(): void;
}

/** Wraps an open or opening `ws` WebSocket. Unparseable messages become `error`s. */
export function wsRealtimeConnection(socket: WsSocket): ClosableRealtimeConnection {
  const s = socket as Partial<Record<'on' | 'send', unknown>> | null | undefined;
  if (typeof s?.on !== 'function' || typeof s.send !== 'function')
    throw argumentError('wsRealtimeConnection(socket)', 'a `ws` WebSocket', socket);
  const emitter = new EventEmitter();
  socket.on('message', (data) => {
    let event: unknown;
    try {
      event = JSON.parse(String(data));
    } catch (error) {
      emitter.emit(
        'error',
        new Error('the Realtime server sent an event that is not JSON', { cause: error }),
      );
      return;
    }
    emitter.emit('event', event);
  });
  socket.on('error', (error) => emitter.emit('error', error));
  return {
    socket,
    send(event: RealtimeSendable): void {
      socket.send(JSON.stringify(event));
    },
    on(name: 'event' | 'error', listener: (value: unknown) => void): unknown {
      return emitter.on(name, listener);
    },
    off(name: 'event' | 'error', listener: (...args: never[]) => void): unknown {
      return emitter.off(name, listener as (...args: unknown[]) => void);
    },
    close(): void {
      socket.close();
    },
  };
}

/** Options of {@link connectRealtime}. */
export interface ConnectRealtimeOptions {
  /** `wss://api.openai.com/v1/realtime?model=…`, or a loopback `ws:` URL. */
  readonly url: string;
  /**
   * E.g. `{ Authorization: 'Bearer …' }`. Credentials in them (the `Authorization` value and its
   * token, any header named like a key, token, secret or auth) and in the URL's query (`api-key=…`)
   * become the connection's `credentials()`, scrubbed from what the session shows.
   */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Header and query names that carry a credential. */
const CREDENTIAL_NAME = /key|token|secret|auth|signature|password/i;

/** The credentials in a connection's URL query and headers (see {@link ConnectRealtimeOptions}). */
export function credentialsIn(options: ConnectRealtimeOptions): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!CREDENTIAL_NAME.test(name)) continue;
    found.push(value);
    // `Bearer sk-…`: the token alone is what a server echoes.
    const token = /^\s*\S+\s+(\S.*)$/.exec(value)?.[1];
    if (token !== undefined) found.push(token.trim());
  }
  let query: URLSearchParams | undefined;
  try {
    query = new URL(options.url).searchParams;
  } catch {
    query = undefined;
  }
  for (const [name, value] of query ?? [])
    if (CREDENTIAL_NAME.test(name) && value !== '') found.push(value);
  return found;
}

/** Opens a `ws` WebSocket and resolves with its connection once it is open. */
export async function connectRealtime(
  options: ConnectRealtimeOptions,
): Promise<ClosableRealtimeConnection> {
  checkConnectOptions(options);
  const socket = new WebSocket(options.url, { headers: { ...options.headers } });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const credentials = credentialsIn(options);
  return { ...wsRealtimeConnection(socket), credentials: () => credentials };
}
