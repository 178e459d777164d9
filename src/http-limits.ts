/**
 * The connection limits every HTTP server of switchboard sets (`serve`, MCP over HTTP, the
 * studio), as a production server does: a client that sends its headers or body slowly (or never)
 * is cut off, idle keep-alive connections close, and the number of open connections is capped.
 * Node's own defaults (a 60 s headers and 300 s request timeout checked every 30 s, no connection
 * cap) let a few hundred trickling clients take every file descriptor, and real clients with them.
 */
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { MAX_TIMER_MS } from './option-checks.js';

/** Connection limits of a server; every field optional (defaults below). */
export interface ConnectionLimits {
  /** Time to receive a request's headers, ms; then 408 and the socket closes. Default 10 000. */
  readonly headersTimeoutMs?: number;
  /** Time to receive a whole request (headers and body), ms; then 408. Default 30 000. */
  readonly requestTimeoutMs?: number;
  /** An idle keep-alive connection closes after this, ms. Default 5 000. */
  readonly keepAliveTimeoutMs?: number;
  /** Requests served on one keep-alive connection before it closes. Default 100. */
  readonly maxRequestsPerSocket?: number;
  /**
   * Open connections at most. Over it, the oldest connection without a request being served
   * (idle, or still sending its request) is closed, else the new one. Default 256.
   */
  readonly maxConnections?: number;
}

/** Defaults of {@link ConnectionLimits}. */
export const DEFAULT_CONNECTION_LIMITS: Readonly<Required<ConnectionLimits>> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 100,
  maxConnections: 256,
});

/** Checks one limit: a whole number from 1 to its maximum; throws a RangeError naming it. */
export function checkLimit(key: string, value: number): number {
  const max = key.endsWith('Ms') ? MAX_TIMER_MS : Number.MAX_SAFE_INTEGER;
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new RangeError(`${key}: expected a whole number from 1 to ${max}, got ${value}`);
  return value;
}

/** The limits with defaults filled in; throws a RangeError naming a bad one (a host mistake). */
export function resolveConnectionLimits(limits: ConnectionLimits): Required<ConnectionLimits> {
  const out = { ...DEFAULT_CONNECTION_LIMITS };
  for (const key of Object.keys(DEFAULT_CONNECTION_LIMITS) as (keyof ConnectionLimits)[]) {
    const value = limits[key];
    if (value !== undefined) out[key] = checkLimit(key, value);
  }
  if (out.headersTimeoutMs > out.requestTimeoutMs)
    throw new RangeError(
      `headersTimeoutMs (${out.headersTimeoutMs}) must not exceed requestTimeoutMs (${out.requestTimeoutMs})`,
    );
  return out;
}

/**
 * The options of `createServer` for these limits. Node checks the header and request timeouts
 * every `connectionsCheckingInterval` (default 30 s, which would let a trickling client outlive a
 * 10 s timeout threefold); a quarter of the headers timeout keeps the overshoot small, and the
 * floor keeps the check cheap.
 */
export function serverOptions(limits: Required<ConnectionLimits>): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(
      10,
      Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)),
    ),
  };
}

/** The connections of a server under {@link limitConnections}. */
export interface LimitedConnections {
  /** Open sockets, oldest first. */
  readonly sockets: ReadonlySet<Socket>;
  /** True while a request on this socket is being received or answered. */
  busy(socket: Socket): boolean;
}

/**
 * Caps a server's connections and requests per connection (the timeouts come from
 * {@link serverOptions}). Over `maxConnections`, the oldest connection whose request is not fully
 * received (idle, or still sending: under a slow-client attack, the attackers) is closed, so a
 * client that sends its request at once still gets in; when every other connection is being
 * answered, the newcomer goes. Node's own `maxConnections` would refuse every newcomer while slow
 * clients hold the cap, and its `maxRequestsPerSocket` only says `connection: close` and leaves
 * the socket open until the keep-alive timeout: saying it ourselves makes Node close it.
 */
export function limitConnections(
  server: Server,
  limits: Required<ConnectionLimits>,
): LimitedConnections {
  const sockets = new Set<Socket>();
  const current = new WeakMap<Socket, IncomingMessage>();
  const served = new WeakMap<Socket, number>();
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  // Before the server's own handler, which may answer at once.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    current.set(socket, req);
    const count = (served.get(socket) ?? 0) + 1;
    served.set(socket, count);
    if (count >= limits.maxRequestsPerSocket) res.setHeader('connection', 'close');
    res.once('close', () => {
      if (current.get(socket) === req) current.delete(socket);
    });
  });
  const evictFor = (newcomer: Socket): void => {
    let victim = newcomer;
    for (const socket of sockets)
      if (socket !== newcomer && current.get(socket)?.complete !== true) {
        victim = socket;
        break;
      }
    // The event Node's own cap emits, with its data (read before the socket is destroyed).
    const data = {
      localAddress: victim.localAddress,
      localPort: victim.localPort,
      remoteAddress: victim.remoteAddress,
      remotePort: victim.remotePort,
      remoteFamily: victim.remoteFamily,
    };
    sockets.delete(victim);
    victim.destroy();
    server.emit('drop', data);
  };
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    if (sockets.size > limits.maxConnections) evictFor(socket);
  });
  return { sockets, busy: (socket) => current.has(socket) };
}
