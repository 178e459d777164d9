/**
 * An undici connector that enforces the network policy at dial time: it dials only an address
 * that was checked (taken from the pre-request check, or checked here), never a fresh DNS answer,
 * so a name cannot rebind to a private address between the check and the connection.
 */
import type { buildConnector } from 'undici';
import { undici } from '../../lazy-deps.js';
import type { NetworkPolicy } from './service-config.js';
import { checkHost, PolicyDeniedError, type HostResolver } from './network-policy.js';

/** How long a pre-request check's addresses may be reused by the connector. */
const PIN_TTL_MS = 30_000;

/** Checked addresses per host name, shared by the pre-request check and the connector. */
export class PinnedAddresses {
  readonly #pins = new Map<
    string,
    { readonly addresses: readonly string[]; readonly until: number }
  >();
  constructor(private readonly now: () => number) {}

  /** Remembers addresses that passed the policy. */
  set(host: string, addresses: readonly string[]): void {
    if (addresses.length > 0)
      this.#pins.set(host.toLowerCase(), { addresses, until: this.now() + PIN_TTL_MS });
  }

  /** Checked addresses still fresh for `host`, if any. */
  get(host: string): readonly string[] | undefined {
    const pin = this.#pins.get(host.toLowerCase());
    if (pin === undefined) return undefined;
    if (pin.until < this.now()) {
      this.#pins.delete(host.toLowerCase());
      return undefined;
    }
    return pin.addresses;
  }
}

/** Options of {@link createPinnedConnector}. */
export interface PinnedConnectorOptions {
  readonly policy: NetworkPolicy;
  readonly resolve: HostResolver;
  readonly pins: PinnedAddresses;
  /** The connector that really dials. Default: undici's `buildConnector({})`. */
  readonly inner?: buildConnector.connector;
}

/** Wraps a connector so it dials only policy-checked addresses. */
export function createPinnedConnector(options: PinnedConnectorOptions): buildConnector.connector {
  const inner = options.inner ?? undici().buildConnector({});
  const active =
    options.policy.denyPrivateNetworks === true || options.policy.allowedHosts !== undefined;
  if (!active) return inner;
  return (opts, callback) => {
    const host = opts.hostname.startsWith('[') ? opts.hostname.slice(1, -1) : opts.hostname;
    const dial = (addresses: readonly string[]): void => {
      const address = addresses[0];
      if (address === undefined) {
        inner(opts, callback);
        return;
      }
      // Keep the name for TLS (SNI and certificate checks); dial the checked address.
      const servername = opts.servername ?? (address === host ? undefined : host);
      inner(
        Object.assign(
          {},
          opts,
          servername === undefined ? { hostname: address } : { hostname: address, servername },
        ),
        callback,
      );
    };
    const pinned = options.pins.get(host);
    if (pinned !== undefined) {
      dial(pinned);
      return;
    }
    checkHost(host, options.policy, options.resolve).then(
      (verdict) => {
        if (!verdict.ok) callback(new PolicyDeniedError(verdict.reason), null);
        else dial(verdict.addresses);
      },
      (err: unknown) => callback(err instanceof Error ? err : new Error('connect failed'), null),
    );
  };
}
