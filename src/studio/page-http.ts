/**
 * The studio's HTTP (studio-session.ts): endpoint calls go out for real or to the page's HTTP
 * double, and are recorded for the timeline and "save as fixture"; the page's double answers as
 * fixture exchanges, and the URL form OAuth skips compare.
 */
import { Agent, type Dispatcher } from 'undici';
import type { ServiceConfig } from '../handlers/endpoint/service-config.js';
import { httpExchangeSchema, type HttpExchange } from '../harness/fixture-schema.js';
import { createHttpDouble, type HttpDouble } from '../harness/http-double.js';
import {
  createRecordingDispatcher,
  type RecordingDispatcher,
} from '../harness/recording-dispatcher.js';
import type { DoubleExchange } from './protocol.js';
import { StudioProblem } from './studio-problem.js';

/** Options of {@link StudioHttp}. */
export interface StudioHttpOptions {
  readonly services: Readonly<Record<string, ServiceConfig>> | undefined;
  /** Scrubs the conversation's secrets from what is recorded. */
  readonly scrub: (text: string) => string;
}

/** The HTTP of one studio: a real Agent, or the page's double when it declared one; recorded. */
export class StudioHttp {
  readonly #agent = new Agent();
  readonly #recording: RecordingDispatcher;
  #double: HttpDouble | undefined;
  #declared: DoubleExchange[] = [];

  constructor({ services, scrub }: StudioHttpOptions) {
    // The double, when the page declared one, answers instead of the network.
    const routed: Dispatcher = this.#agent.compose(
      (dispatch) => (opts, handler) =>
        this.#double !== undefined
          ? this.#double.dispatcher.dispatch(opts, handler)
          : dispatch(opts, handler),
    );
    // OAuth token requests are the engine's own, not a tool's: not recorded (as in the REPL), so
    // the recorded exchanges line up one for one with the session's http-request events.
    const tokenUrls = new Set(
      Object.values(services ?? {}).flatMap((c) =>
        c.auth?.type === 'oauth2' ? [withoutQuery(c.auth.auth_url)] : [],
      ),
    );
    this.#recording = createRecordingDispatcher({
      dispatcher: routed,
      scrub,
      skip: (url) => tokenUrls.has(withoutQuery(url)),
    });
  }

  /** The dispatcher the session's endpoint calls go through. */
  get dispatcher(): Dispatcher {
    return this.#recording.dispatcher;
  }

  /** The exchanges recorded so far (a new conversation empties it). */
  get exchanges(): RecordingDispatcher['exchanges'] {
    return this.#recording.exchanges;
  }

  get mode(): 'real' | 'double' {
    return this.#double !== undefined ? 'double' : 'real';
  }

  /** The page's declared answers, as it sent them. */
  get declared(): DoubleExchange[] {
    return this.#declared;
  }

  /** Endpoint calls go to the declared answers (`double`), or out for real (`real`). */
  async set(mode: 'real' | 'double', exchanges: readonly DoubleExchange[]): Promise<void> {
    const parsed = exchanges.map((x, i) => toExchange(x, i));
    await this.#double?.close();
    this.#declared = [...exchanges];
    this.#double = mode === 'double' ? createHttpDouble({ exchanges: parsed }) : undefined;
  }

  async close(): Promise<void> {
    await this.#double?.close().catch(() => undefined);
    await this.#agent.close().catch(() => undefined);
  }
}

/** A declared answer of the page as a fixture exchange (answering up to 100 requests). */
export function toExchange(x: DoubleExchange, index: number): HttpExchange {
  let json: unknown;
  try {
    json = JSON.parse(x.body);
  } catch {
    json = undefined;
  }
  const parsed = httpExchangeSchema.safeParse({
    request: { method: x.method, url: x.url },
    response: { status: x.status, ...(json !== undefined ? { json } : { text: x.body }) },
    times: 100,
  });
  if (!parsed.success)
    throw new StudioProblem(
      400,
      'bad_exchange',
      `HTTP double answer ${index + 1}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

/** Origin and path of a URL (its query may carry anything). */
export function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}
