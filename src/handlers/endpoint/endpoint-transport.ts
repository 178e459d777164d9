/**
 * Where one endpoint handler's requests go: the host's dispatcher, the shared pool for its network
 * policy (connection-pools.ts), or an Agent of its own when it was given a resolver or a connector.
 * It owns that choice, the network policy and the response limits the handler was given, the
 * Agent it made, its pinned addresses and pending connects, and sends each attempt;
 * endpoint-calls.ts decides what to send and when.
 */
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../../lazy-deps.js';
import {
  cappedFactory,
  connectionPools,
  DEFAULT_CONNECTIONS_PER_ORIGIN,
  poolFor,
  type SharedPool,
} from './connection-pools.js';
import {
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  type EndpointHandlerOptions,
} from './endpoint-options.js';
import {
  exchange,
  type ExchangeLimits,
  type ExchangeRequest,
  type ExchangeResult,
} from './exchange.js';
import {
  checkHost,
  systemResolver,
  type HostResolver,
  type PolicyVerdict,
} from './network-policy.js';
import { PendingConnects } from './pending-connects.js';
import { createPinnedConnector, PinnedAddresses } from './pinned-connector.js';
import type { NetworkPolicy } from './service-config.js';
import { connectionLimits } from './service-origins.js';

/** Bytes of a non-2xx body kept for the error excerpt. */
const ERROR_BODY_BYTES = 4096;

/** What {@link EndpointTransport} needs of its handler. */
export interface TransportOptions {
  readonly options: EndpointHandlerOptions;
  readonly now: () => number;
}

/** The dispatcher of one endpoint handler and the attempts sent through it. */
export class EndpointTransport {
  readonly #options: EndpointHandlerOptions;
  readonly #now: () => number;
  readonly #policy: NetworkPolicy;
  readonly #resolve: HostResolver;
  /** The caps on a response, whose failures name them. */
  readonly limits: ExchangeLimits;
  /** A policy that restricts anything: each call's host is checked before it is sent. */
  readonly policyActive: boolean;
  // A resolver or connector of its own cannot be shared: such a handler dials through its own Agent.
  readonly #ownsAgent: boolean;
  #ownPins: PinnedAddresses | undefined;
  #ownAgent: Agent | undefined;
  #ownConnects: PendingConnects | undefined;
  #shared: SharedPool | undefined;

  constructor({ options, now }: TransportOptions) {
    this.#options = options;
    this.#now = now;
    const policy = (this.#policy = options.networkPolicy ?? {});
    this.policyActive = policy.denyPrivateNetworks === true || policy.allowedHosts !== undefined;
    this.#resolve = options.lookup ?? systemResolver;
    this.limits = {
      maxBodyBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      maxErrorBodyBytes: ERROR_BODY_BYTES,
      maxHeaderBytes: options.maxHeaderBytes ?? DEFAULT_MAX_HEADER_BYTES,
    };
    this.#ownsAgent =
      options.dispatcher === undefined &&
      (options.lookup !== undefined || options.connector !== undefined);
  }

  #pool(): SharedPool {
    if (!this.#ownsAgent) {
      this.#shared ??= poolFor(this.#options.pools ?? connectionPools, {
        policy: this.#policy,
        maxHeaderBytes: this.limits.maxHeaderBytes,
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
      maxHeaderSize: this.limits.maxHeaderBytes,
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

  /** The network policy's verdict on `hostname`, with the addresses it approved. */
  checkHost(hostname: string): Promise<PolicyVerdict> {
    return checkHost(hostname, this.#policy, this.#resolve);
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
    return exchange(this.dispatcher(), { ...req, headers }, this.limits);
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
