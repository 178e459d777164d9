/**
 * Connection pools shared by every endpoint handler (so by every session) of a process: one undici
 * Agent — per-origin pools with keep-alive — per network configuration, created on first use.
 * A thousand sessions calling one API share that API's sockets instead of each holding its own
 * Agent (≈32 KB and two sockets per session, and a fresh TCP/TLS connect for every session).
 *
 * The network policy is enforced at dial time by the Agent's connector, so sessions with different
 * policies (or header caps) get different Agents; the addresses a policy check approved are
 * pinned per Agent, so they are reused only by sessions under the same policy.
 *
 * Each origin's pool holds at most `connectionsPerOrigin` connections (default 100; a service's
 * `maxConnections` lowers or raises it for its origins): a burst of thousands of calls to one API
 * queues on warm keep-alive connections instead of dialling a socket per call. A queued call
 * still ends at its deadline (exchange.ts), and one whose deadline passed is never sent.
 *
 * Closing a session never closes a shared Agent. Idle keep-alive sockets are unref'd by undici,
 * so a process exits on its own; `closeAll()` is for a host that wants its sockets closed now
 * (graceful shutdown, tests).
 */
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../../lazy-deps.js';
import { checkOptions, fields, integer } from '../../option-checks.js';
import type { NetworkPolicy } from './service-config.js';
import { systemResolver } from './network-policy.js';
import { PendingConnects } from './pending-connects.js';
import { createPinnedConnector, PinnedAddresses } from './pinned-connector.js';

/** The most connections per origin a cap may allow: far beyond one API's need, below fd limits. */
export const MAX_CONNECTIONS_PER_ORIGIN = 10_000;

/** Connections per origin when neither the pools nor a service say otherwise. */
export const DEFAULT_CONNECTIONS_PER_ORIGIN = 100;

/** Options of {@link createConnectionPools}. */
export interface ConnectionPoolsOptions {
  /**
   * Most connections open at once to one origin, per network configuration; calls beyond it
   * queue for a free connection. Default {@link DEFAULT_CONNECTIONS_PER_ORIGIN}.
   */
  readonly connectionsPerOrigin?: number;
}

/** What a handler needs to know to pick its shared pool. */
export interface PoolRequest {
  readonly policy: NetworkPolicy;
  /** Cap on a response header block, in bytes (an Agent option). */
  readonly maxHeaderBytes: number;
  /** Connection caps of origins whose service sets `maxConnections` (service-origins.ts). */
  readonly connectionLimits?: ReadonlyMap<string, number> | undefined;
}

/** One shared Agent and the addresses its policy approved. */
export interface SharedPool {
  readonly dispatcher: Dispatcher;
  readonly pins: PinnedAddresses;
  /** Its connects not yet complete, aborted when every call waiting for them ended aborted. */
  readonly connects: PendingConnects;
}

/** A set of shared connection pools; see {@link createConnectionPools}. */
export interface ConnectionPools {
  /** Number of Agents currently open. */
  readonly size: number;
  /**
   * Closes every Agent gracefully (requests in flight finish; idle sockets close). Later calls
   * create fresh Agents, so it is safe to call while sessions still exist.
   */
  closeAll(): Promise<void>;
  /** Like {@link closeAll} but aborts requests in flight and destroys sockets at once. */
  destroyAll(): Promise<void>;
}

// Which pool serves a configuration is the endpoint handler's business, not the host's (its
// request and result hold the engine's own connection state), so it is kept here, by the object
// createConnectionPools made, and not in the public interface.
const POOL_FOR = new WeakMap<object, (request: PoolRequest) => SharedPool>();

/** Whether `value` is a set of pools made by {@link createConnectionPools}. */
export function isConnectionPools(value: unknown): value is ConnectionPools {
  return typeof value === 'object' && value !== null && POOL_FOR.has(value);
}

/** The pool of `pools` for this configuration, created on first use. */
export function poolFor(pools: ConnectionPools, request: PoolRequest): SharedPool {
  const get = POOL_FOR.get(pools);
  if (get === undefined)
    throw new TypeError(
      'pools: expected connection pools from createConnectionPools() (or connectionPools)',
    );
  return get(request);
}

/** A configuration as a string key: the same rules give the same key whatever the order. */
function poolKey({ policy, maxHeaderBytes, connectionLimits }: PoolRequest): string {
  const hosts =
    policy.allowedHosts === undefined
      ? '*'
      : JSON.stringify([...new Set(policy.allowedHosts.map((h) => h.toLowerCase()))].sort());
  const limits =
    connectionLimits === undefined
      ? ''
      : JSON.stringify([...connectionLimits].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `${policy.denyPrivateNetworks === true ? 'deny' : 'any'}|${hosts}|${maxHeaderBytes}|${limits}`;
}

/**
 * undici's Agent makes one pool per origin through this: capped at the origin's limit. `origin`
 * is what a dispatch names (a URL's `origin`).
 */
export function cappedFactory(
  perOrigin: number,
  limits: ReadonlyMap<string, number> | undefined,
): (origin: string | URL, options: object) => Dispatcher {
  return (origin, options) => {
    const key = typeof origin === 'string' ? origin : origin.origin;
    return new (undici().Pool)(origin, { ...options, connections: limits?.get(key) ?? perOrigin });
  };
}

/** A host mistake is a TypeError naming the option; an unknown key a warning. */
const POOLS_OPTIONS = fields({ connectionsPerOrigin: integer(1, MAX_CONNECTIONS_PER_ORIGIN) });

/**
 * Creates a separate set of shared pools (a host running several tenants, or a test that wants
 * its own sockets). Most hosts use {@link connectionPools}, the process-wide default.
 */
export function createConnectionPools(options: ConnectionPoolsOptions = {}): ConnectionPools {
  checkOptions(POOLS_OPTIONS, options, { caller: 'createConnectionPools', error: 'type' });
  const perOrigin = options.connectionsPerOrigin ?? DEFAULT_CONNECTIONS_PER_ORIGIN;
  const pools = new Map<string, SharedPool & { readonly agent: Agent }>();
  const drain = async (how: 'close' | 'destroy'): Promise<void> => {
    const drained = [...pools.values()];
    const agents = drained.map((p) => p.agent);
    pools.clear();
    if (how === 'destroy') for (const p of drained) p.connects.abortAll();
    await Promise.all(agents.map((a) => (how === 'close' ? a.close() : a.destroy())));
  };
  const getPool = (request: PoolRequest): SharedPool => {
    const { policy, maxHeaderBytes } = request;
    const key = poolKey(request);
    let pool = pools.get(key);
    if (pool === undefined) {
      // Pins use the real clock: they are shared by sessions whose injected clocks differ.
      const pins = new PinnedAddresses(Date.now);
      const connects = new PendingConnects();
      const { Agent, buildConnector } = undici();
      const agent = new Agent({
        connect: connects.track(
          createPinnedConnector({
            policy,
            resolve: systemResolver,
            pins,
            inner: connects.dialer(buildConnector({})),
          }),
        ),
        maxHeaderSize: maxHeaderBytes,
        factory: cappedFactory(perOrigin, request.connectionLimits),
      });
      pool = { agent, dispatcher: agent, pins, connects };
      pools.set(key, pool);
    }
    return pool;
  };
  const set: ConnectionPools = {
    get size() {
      return pools.size;
    },
    closeAll: () => drain('close'),
    destroyAll: () => drain('destroy'),
  };
  POOL_FOR.set(set, getPool);
  return set;
}

/**
 * The process-wide shared pools every session and endpoint handler uses unless given a
 * `dispatcher` (or other `pools`). `await connectionPools.closeAll()` at shutdown closes their
 * sockets; without it the process still exits (idle sockets do not hold the event loop).
 */
export const connectionPools: ConnectionPools = createConnectionPools();
