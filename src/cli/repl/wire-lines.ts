/**
 * The REPL's `http → …` and `← …` lines, printed in the order of the session's events. The
 * dispatcher sees a request as it goes out, while the session's events (`model calls …`, then
 * `http-request`) are narrated as the turn's stream is read, a moment later; printed at once, the
 * request line came before the call it belongs to. Each line waits for its event (or arrives
 * after it and prints at once); what no event claims prints before the call's result.
 */
import type { Agent } from 'undici';
import type { SecretSet } from '../../handlers/endpoint/secret-set.js';
import {
  createRecordingDispatcher,
  type RecordingDispatcher,
} from '../../harness/recording-dispatcher.js';
import type { ServiceConfig } from '../../session/types.js';
import { cut, withoutQuery } from './repl-text.js';

/** Which event a line waits for. */
export type WireKind = 'request' | 'response';

/** Orders the dispatcher's lines by the session's events. */
export class WireLines {
  readonly #print: (line: string) => void;
  readonly #queued: { kind: WireKind; line: string }[] = [];
  /** Events that arrived before their line (the line then prints as it comes). */
  readonly #owed = new Map<WireKind, number>([
    ['request', 0],
    ['response', 0],
  ]);
  #inTurn = false;

  constructor(print: (line: string) => void) {
    this.#print = print;
  }

  /** A turn's events are being read: lines wait for them. Outside a turn lines print at once. */
  startTurn(): void {
    this.#inTurn = true;
    this.#owed.set('request', 0);
    this.#owed.set('response', 0);
  }

  /** The turn is over: prints whatever is left. */
  endTurn(): void {
    this.flush();
    this.#inTurn = false;
  }

  /** A line from the dispatcher. */
  line(kind: WireKind, line: string): void {
    const owed = this.#owed.get(kind) ?? 0;
    if (!this.#inTurn) this.#print(line);
    else if (owed > 0 && this.#queued.length === 0) {
      this.#owed.set(kind, owed - 1);
      this.#print(line);
    } else this.#queued.push({ kind, line });
  }

  /** The session's event for the next line of `kind`. */
  event(kind: WireKind): void {
    const index = this.#queued.findIndex((q) => q.kind === kind);
    if (index === -1) {
      this.#owed.set(kind, (this.#owed.get(kind) ?? 0) + 1);
      return;
    }
    // Lines queued before it (another call's) go first, keeping the wire's own order.
    for (const q of this.#queued.splice(0, index + 1)) this.#print(q.line);
  }

  /** Prints every queued line (before a call's result, at the end of a turn). */
  flush(): void {
    for (const q of this.#queued.splice(0)) this.#print(q.line);
  }
}

/**
 * The REPL's HTTP: real requests, recorded for `/save` and scrubbed of every secret (the REPL
 * prints and saves what it records), each printed through `wire`. Token requests of OAuth
 * services are neither recorded nor printed.
 */
export function replDispatcher(o: {
  readonly agent: Agent;
  readonly secrets: SecretSet;
  readonly services: Readonly<Record<string, ServiceConfig>> | undefined;
  readonly wire: WireLines;
}): RecordingDispatcher {
  const tokenUrls = new Set(
    Object.values(o.services ?? {}).flatMap((c) =>
      c.auth?.type === 'oauth2' ? [withoutQuery(c.auth.auth_url)] : [],
    ),
  );
  return createRecordingDispatcher({
    dispatcher: o.agent,
    scrub: (text) => o.secrets.scrubText(text),
    skip: (url) => tokenUrls.has(withoutQuery(url)),
    onRequest: (x) =>
      o.wire.line(
        'request',
        `http    → ${x.request.method} ${x.request.url}${x.request.body !== undefined ? ` ${cut(x.request.body)}` : ''}`,
      ),
    onResponse: (x) =>
      o.wire.line(
        'response',
        x.response !== undefined
          ? `        ← ${x.response.status} ${cut(x.response.body)}`
          : `        ← failed: ${x.error ?? 'unknown error'}`,
      ),
  });
}
