/**
 * The options and the interface of the endpoint handler (endpoint-handler.ts), with its default
 * limits; endpoint-handler.ts re-exports them.
 */
import type { buildConnector, Dispatcher } from 'undici';
import type { Handler } from '../types.js';
import type { ConnectionPools } from './connection-pools.js';
import type { Abortable } from './deadline.js';
import type { HostResolver } from './network-policy.js';
import type { SecretSet } from './secret-set.js';
import type { NetworkPolicy, ServiceConfig } from './service-config.js';

/** Default cap on a response body, after decompression: 1 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Default cap on the response header block: 16 KiB. */
export const DEFAULT_MAX_HEADER_BYTES = 16 * 1024;

/** Options of `createEndpointHandler` (endpoint-handler.ts). */
export interface EndpointHandlerOptions {
  /**
   * Dispatcher for every request. Default: the shared Agent of `pools` for this handler's network
   * policy (never closed by the handler); with `lookup` or `connector`, an Agent of its own,
   * closed by `close()`.
   */
  readonly dispatcher?: Dispatcher;
  /** Shared pools to take the default dispatcher from. Default `connectionPools`. */
  readonly pools?: ConnectionPools;
  /** Services by name, with their secrets; one with `auth` must list `origins`. Default none. */
  readonly services?: Readonly<Record<string, ServiceConfig>>;
  /**
   * The set outputs are scrubbed with; the handler adds the services' secrets and every token it
   * obtains. Default: a set of its own. Share one to scrub what a recorder saw (the REPL does).
   */
  readonly secrets?: SecretSet;
  /** Default: no restriction. */
  readonly networkPolicy?: NetworkPolicy;
  /** Default {@link DEFAULT_MAX_RESPONSE_BYTES}. */
  readonly maxResponseBytes?: number;
  /** Default {@link DEFAULT_MAX_HEADER_BYTES}. */
  readonly maxHeaderBytes?: number;
  /**
   * Resolver used by the network policy. Default: the system resolver (all addresses). Giving one
   * makes the handler use an Agent of its own (the shared pools dial with the system resolver).
   */
  readonly lookup?: HostResolver;
  /** Connector of an Agent of the handler's own (ignored with `dispatcher`). Default: undici's. */
  readonly connector?: buildConnector.connector;
  /** Clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
  /** Wait between retries; must resolve early when the call is aborted. Default: a timer. */
  readonly sleep?: (ms: number, abortable: Abortable) => Promise<void>;
}

/**
 * An endpoint handler. `close()` ends its calls in flight (as `cancelled`) and destroys the Agent
 * it owns, if any; an injected dispatcher and the shared pools stay open.
 */
export interface EndpointHandler extends Handler {
  close(): Promise<void>;
}
