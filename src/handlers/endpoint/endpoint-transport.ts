/**
 * Where one endpoint handler's requests go: the host's dispatcher, the shared pool for its network
 * policy (connection-pools.ts), or an Agent of its own when it was given a resolver or a connector.
 * It owns that choice, the Agent it made, its pinned addresses and pending connects, and sends
 * each attempt; endpoint-calls.ts decides what to send and when.
 */
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../../lazy-deps.js';
import {
  cappedFactory,
  connectionPools,
  DEFAULT_CONNECTIONS_PER_ORIGIN,
  type SharedPool,
} from './connection-pools.js';
import type { EndpointHandlerOptions } from './endpoint-options.js';
import {
  exchange,
  type ExchangeLimits,
  type ExchangeRequest,
  type ExchangeResult,
} from './exchange.js';
import type { HostResolver } from './network-policy.js';
import { PendingConnects } from './pending-connects.js';
import { createPinnedConnector, PinnedAddresses } from './pinned-connector.js';
import type { NetworkPolicy } from './service-config.js';
import { connectionLimits } from './service-origins.js';

/** What {@link EndpointTransport} needs of its handler. */
export interface TransportOptions {
  readonly options: EndpointHandlerOptions;
  readonly now: () => number;
  readonly policy: NetworkPolicy;
  readonly resolve: HostResolver;
  readonly limits: ExchangeLimits;
}

/** The dispatcher of one endpoint handler and the attempts sent through it. */
export class EndpointTransport {
  readonly #options: EndpointHandlerOptions;
  readonly #now: () => number;
  readonly #policy: NetworkPolicy;
  readonly #resolve: HostResolver;
  readonly #limits: ExchangeLimits;
  // A resolver or connector of its own cannot be shared: such a handler dials through its own Agent.
  readonly #ownsAgent: boolean;
  #ownPins: PinnedAddresses | undefined;
  #ownAgent: Agent | undefined;
  #ownConnects: PendingConnects | undefined;
  #shared: SharedPool | undefined;

  constructor({ options, now, policy, resolve, limits }: TransportOptions) {
    this.#options = options;
    this.#now = now;
    this.#policy = policy;
    this.#resolve = resolve;
    this.#limits = limits;
    this.#ownsAgent =
      options.dispatcher === undefined &&
      (options.lookup !== undefined || options.connector !== undefined);
  }

  #pool(): SharedPool {
    if (!this.#ownsAgent) {
      this.#shared ??= (this.#options.pools ?? connectionPools).poolFor({
        policy: this.#policy,
        maxHeaderBytes: this.#limits.maxHeaderBytes,
        connectionLimits: connectionLimits(this.#options.services),
      });
      return this.#shared;
    }
    const pins = (this.#ownPins ??= new PinnedAddresses(this.#now));
    const connects = (this.#ownConnects ??= new PendingConnects());
    if (this.#ownAgent !== undefined) return { dispatcher: this.#ownAgent, pins, connects };
    const { Agent, buildConnector } = undici();
    this.#ownAgent = new Agent({
      connect: connects.track(
        createPinnedConnector({
          policy: this.#policy,
          resolve: this.#resolve,
          pins,
          inner: connects.dialer(this.#options.connector ?? buildConnector({})),
        }),
      ),
      maxHeaderSize: this.#limits.maxHeaderBytes,
      factory: cappedFactory(
        DEFAULT_CONNECTIONS_PER_ORIGIN,
        connectionLimits(this.#options.services),
      ),
    });
    return { dispatcher: this.#ownAgent, pins, connects };
  }

  dispatcher(): Dispatcher {
    return this.#options.dispatcher ?? this.#pool().dispatcher;
  }

  /** The pending connects of the pool in use; none with a host's dispatcher (it is the host's). */
  connects(): PendingConnects | undefined {
    return this.#options.dispatcher === undefined ? this.#pool().connects : undefined;
  }

  /** Pins the addresses a policy check approved for `host` (a host's dispatcher dials its own way). */
  pin(host: string, addresses: readonly string[]): void {
    if (this.#options.dispatcher === undefined) this.#pool().pins.set(host, addresses);
  }

  /** One attempt on the engine's dispatcher, with the attempt's trace headers when it has any. */
  send(
    req: ExchangeRequest,
    traced: { readonly headers: Readonly<Record<string, string>> } | undefined,
  ): Promise<ExchangeResult> {
    const headers =
      traced === undefined || Object.keys(traced.headers).length === 0
        ? req.headers
        : Object.assign({}, req.headers, traced.headers);
    return exchange(this.dispatcher(), { ...req, headers }, this.#limits);
  }

  /** Forgets the shared pool (never closed here) and destroys the Agent of its own, if any. */
  async close(): Promise<void> {
    this.#shared = undefined;
    const agent = this.#ownAgent;
    this.#ownAgent = undefined;
    this.#ownConnects?.abortAll();
    // destroy, not close: a call still waiting on a silent server must not hold the shutdown.
    if (agent !== undefined) await agent.destroy();
  }
}
