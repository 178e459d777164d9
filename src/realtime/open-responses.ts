/**
 * The Realtime responses a link knows: the unfinished ones (their buffers, at most
 * {@link MAX_OPEN_RESPONSES}), and the ids seen lately, so that a server repeating a response id or
 * replaying a call id of an earlier response is recognised instead of believed.
 */
import type { ChatMessage } from '../models/types.js';
import { RecentIds } from './recent-ids.js';
import type { ResponseBuffer } from './response-buffer.js';
import type { ServerFunctionCall } from './server-events.js';

/** Most unfinished responses kept at once (the server runs one; the rest await their `done`): 16. */
export const MAX_OPEN_RESPONSES = 16;
/** How many recent response ids and call ids are remembered to recognise a replay: 4096 each. */
export const MAX_RECENT_IDS = 4096;

/** What became of a `response.created`. */
export type Admission = 'new' | 'repeat' | 'full';

/** What became of a function call: run, past the response's bounds, or a replay (of `first`). */
export type CallOutcome =
  | { readonly type: 'ok' }
  | { readonly type: 'overflow' }
  | { readonly type: 'replay'; readonly first: string };

const OK: CallOutcome = { type: 'ok' };
const OVERFLOW: CallOutcome = { type: 'overflow' };

export class OpenResponses {
  readonly #open = new Map<string, ResponseBuffer>();
  /** Every response id seen lately, finished or not. */
  readonly #responseIds = new RecentIds<true>(MAX_RECENT_IDS);
  /** Call ids seen lately, with the response that carried them ('' for the restored history). */
  readonly #callIds = new RecentIds<string>(MAX_RECENT_IDS);

  /** Unfinished responses kept. */
  get size(): number {
    return this.#open.size;
  }

  get rememberedCalls(): number {
    return this.#callIds.size;
  }

  get rememberedResponses(): number {
    return this.#responseIds.size;
  }

  /** Records a `response.created` id: new (then {@link add} its buffer), a repeat, or no room. */
  admit(responseId: string): Admission {
    if (this.#responseIds.has(responseId)) return 'repeat';
    this.#responseIds.add(responseId, true);
    return this.#open.size >= MAX_OPEN_RESPONSES ? 'full' : 'new';
  }

  add(buffer: ResponseBuffer): void {
    this.#open.set(buffer.id, buffer);
  }

  get(responseId: string): ResponseBuffer | undefined {
    return this.#open.get(responseId);
  }

  /** Forgets an unfinished response (done, failed or refused); its id stays remembered. */
  delete(responseId: string): void {
    this.#open.delete(responseId);
  }

  /** Forgets every unfinished response, returning them. */
  clear(): ResponseBuffer[] {
    const all = [...this.#open.values()];
    this.#open.clear();
    return all;
  }

  /** The calls of a history the session already ran: a replay of their ids runs nothing. */
  rememberHistory(history: readonly ChatMessage[]): void {
    for (const m of history) {
      if (m.role === 'tool') this.#callIds.add(m.tool_call_id, '');
      else if (m.role === 'assistant')
        for (const c of m.tool_calls ?? []) this.#callIds.add(c.id, '');
    }
  }

  /**
   * Hands a complete call to `buffer`, unless an earlier response (or the history) carried its
   * id. The same id seen again within one response is the same call (not a replay).
   */
  call(buffer: ResponseBuffer, call: ServerFunctionCall): CallOutcome {
    if (buffer.done || buffer.has(call.callId)) return OK;
    const first = this.#callIds.get(call.callId);
    if (first !== undefined && first !== buffer.id)
      return buffer.skip(call.callId) ? { type: 'replay', first } : OVERFLOW;
    if (!buffer.call(call.callId, call.name, call.arguments)) return OVERFLOW;
    this.#callIds.add(call.callId, buffer.id);
    return OK;
  }
}
