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
  const credentials = credentialsIn(options);
  const socket = new WebSocket(options.url, { headers: { ...options.headers } });
  // The URL without its query, where a key may be.
  const url = new URL(options.url);
  const where = `the Realtime server at ${url.protocol}//${url.host}${url.pathname}`;
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', (error) =>
      reject(
        new Error(`connectRealtime: could not reach ${where}: ${error.message}`, { cause: error }),
      ),
    );
    // ws's own error said only "Unexpected server response: 401"; the body says why.
    socket.once('unexpected-response', (request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (body.length < MAX_REFUSAL_BODY) body += chunk;
      });
      const refuse = (): void => {
        request.destroy();
        const why = refusalText(body, credentials);
        reject(
          new Error(
            `connectRealtime: ${where} refused the connection: HTTP ${response.statusCode ?? '?'}` +
              (why === '' ? '' : ` (${why})`),
          ),
        );
      };
      response.once('end', refuse);
      response.once('error', refuse);
    });
  });
  return { ...wsRealtimeConnection(socket), credentials: () => credentials };
}

/** Characters of a refusal's body kept for its error. */
const MAX_REFUSAL_BODY = 2000;

/** A refusal's reason: an OpenAI-style `error.message`, else the body's first line; keys scrubbed. */
function refusalText(body: string, credentials: readonly string[]): string {
  let text = body.trim().split('\n', 1)[0] ?? '';
  try {
    const parsed: unknown = JSON.parse(body);
    const error: unknown =
      typeof parsed === 'object' && parsed !== null && 'error' in parsed ? parsed.error : undefined;
    const message: unknown =
      typeof error === 'object' && error !== null && 'message' in error ? error.message : undefined;
    if (typeof message === 'string') text = message;
  } catch {
    // Not JSON: its first line.
  }
  for (const secret of credentials) if (secret !== '') text = text.split(secret).join('[redacted]');
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
