/**
 * Connects that never complete must not outlive the calls waiting for them. undici keeps a
 * connect going until its own connect timeout (10 s) even after every request that wanted it was
 * aborted, so a silent host left one socket per call behind after the call's deadline and after
 * `session.close()`. This registry tracks the connects of one Agent per origin and the calls in
 * flight per origin; when the last call in flight to an origin ends (its deadline, cancellation,
 * `close()`, or an answer that came over another socket), the origin's pending connects are
 * destroyed and undici is told the connect failed. Nobody was waiting for them.
 */
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';

/** Carried through the connector chain (a spread of the options keeps it) to the real dialer. */
const ENTRY = Symbol('switchboard.pendingConnect');

interface PendingConnect {
  socket: Socket | undefined;
  /** Completed, failed or aborted. */
  ended: boolean;
  /** Ends the connect now: destroys its socket and fails it towards undici. */
  abort(): void;
}

type TaggedOptions = buildConnector.Options & { [ENTRY]?: PendingConnect };

/** The thrown reason undici gets for a connect ended this way. */
export class ConnectAbortedError extends Error {
  override readonly name = 'ConnectAbortedError';
  readonly code = 'UND_ERR_ABORTED';
}

const MAX_ORIGINS = 256;

function key(protocol: string, hostname: string, port: string): string {
  const host = (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname).toLowerCase();
  const p = port !== '' ? port : protocol === 'https:' ? '443' : '80';
  return `${protocol}//${host}:${p}`;
}

/** The calls in flight to one origin (kept while the origin is known: no map entry per call). */
export interface OriginCalls {
  /** The origin's key among the pending connects (default port written out, host lower-cased). */
  readonly key: string;
  count: number;
}

/** Pending connects and calls in flight, per origin, of one Agent. */
export class PendingConnects {
  readonly #connects = new Map<string, Set<PendingConnect>>();
  /**
   * A URL's `origin` → its calls in flight. An entry stays when its count drops to 0: adding and
   * deleting a map entry on every call (one call at a time, the usual case) made the map
   * reallocate its table every few calls.
   */
  readonly #origins = new Map<string, OriginCalls>();

  /** Connects now pending (for tests and diagnostics). */
  get size(): number {
    let n = 0;
    for (const set of this.#connects.values()) n += set.size;
    return n;
  }

  /**
   * Wraps the Agent's connector (outermost): every connect is registered under its origin until it
   * completes or is aborted; a socket that arrives after an abort is destroyed at once.
   */
  track(inner: buildConnector.connector): buildConnector.connector {
    return (opts, callback) => {
      const origin = key(opts.protocol, opts.hostname, opts.port);
      let set = this.#connects.get(origin);
      if (set === undefined) {
        set = new Set();
        this.#connects.set(origin, set);
      }
      const own = set;
      const finish = (): void => {
        entry.ended = true;
        own.delete(entry);
        if (own.size === 0 && this.#connects.get(origin) === own) this.#connects.delete(origin);
      };
      const entry: PendingConnect = {
        socket: undefined,
        ended: false,
        abort: () => {
          if (entry.ended) return;
          finish();
          entry.socket?.destroy();
          callback(new ConnectAbortedError('the connect was abandoned by every call'), null);
        },
      };
      own.add(entry);
      const tagged: TaggedOptions = Object.assign({}, opts, { [ENTRY]: entry });
      const socket = inner(tagged, (err, sock) => {
        if (entry.ended) {
          sock?.destroy();
          return;
        }
        finish();
        if (err !== null) callback(err, null);
        else callback(null, sock);
      });
      const dialled = socket as unknown as Socket | undefined;
      if (!entry.ended && dialled instanceof Object && typeof dialled.destroy === 'function')
        entry.socket = dialled;
      return socket;
    };
  }

  /**
   * Wraps the connector that really dials (innermost), so the socket of a connect started after an
   * asynchronous policy check is known too (and destroyed if the connect was aborted meanwhile).
   */
  dialer(inner: buildConnector.connector): buildConnector.connector {
    return (opts, callback) => {
      const entry = (opts as TaggedOptions)[ENTRY];
      // undici's own connector returns the socket it dials (its type says void).
      const socket = inner(opts, callback) as unknown as Socket | undefined;
      if (entry !== undefined && socket instanceof Object && typeof socket.destroy === 'function') {
        entry.socket = socket;
        if (entry.ended) socket.destroy();
      }
      return socket as unknown as ReturnType<buildConnector.connector>;
    };
  }

  /**
   * A call to `url`'s origin starts; returns what to pass to {@link leave} when it ends. The end
   * of the last call in flight to that origin aborts the origin's pending connects.
   */
  enter(url: Pick<URL, 'origin' | 'protocol' | 'hostname' | 'port'>): OriginCalls {
    // A request URL's origin is the same string on every call of a definition, so this is one
    // lookup; bounded, as templated hosts can be many (only idle origins are forgotten).
    let calls = this.#origins.get(url.origin);
    if (calls === undefined) {
      if (this.#origins.size >= MAX_ORIGINS) this.#forgetIdle();
      calls = { key: key(url.protocol, url.hostname, url.port), count: 0 };
      this.#origins.set(url.origin, calls);
    }
    calls.count++;
    return calls;
  }

  /** A call entered with {@link enter} ended (call it once per `enter`). */
  leave(calls: OriginCalls): void {
    if (--calls.count > 0) return;
    calls.count = 0;
    const pending = this.#connects.get(calls.key);
    if (pending !== undefined) for (const entry of [...pending]) entry.abort();
  }

  /** Drops the origins with no call in flight (their records are made again when next used). */
  #forgetIdle(): void {
    for (const [origin, calls] of this.#origins)
      if (calls.count === 0) this.#origins.delete(origin);
  }

  /** Aborts every pending connect (the Agent is being destroyed). */
  abortAll(): void {
    for (const set of [...this.#connects.values()]) for (const entry of [...set]) entry.abort();
  }
}
