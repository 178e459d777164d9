/**
 * One Realtime `response` as the turn loop reads it: the server's events for that response become
 * model stream parts (transcript deltas → `text-delta`, function calls → `tool-call`, `response.done`
 * → `finish`), buffered until the turn reads them, since a response may start before the turn that
 * claims it does (the caller spoke while the previous turn was still finishing).
 *
 * Calls to `action` tools are held back until `response.done`: a hang-up or a transfer never runs
 * while the model is still producing the audio of the same answer.
 *
 * What one response may carry is bounded (the server is not trusted): past
 * {@link MAX_RESPONSE_CALLS} distinct call ids or {@link MAX_RESPONSE_CHARS} characters of text
 * and arguments, the response fails with a `bad_response` model error and what it held is dropped.
 */
import { ModelError } from '../models/errors.js';
import type { ModelStreamPart, ModelUsage } from '../models/types.js';

/** Most distinct call ids one response may carry (as the chat adapter's streamed calls): 128. */
export const MAX_RESPONSE_CALLS = 128;
/** Most characters (UTF-16 units) of transcript and call arguments one response may carry: 1 MiB. */
export const MAX_RESPONSE_CHARS = 1024 * 1024;

/** Who asked for a response. `server`: the server started it on the caller's speech. */
export type ResponseOwner = 'turn' | 'say' | 'server';

/** The buffered events of one response. */
export class ResponseBuffer {
  readonly id: string;
  readonly owner: ResponseOwner;
  /** The caller's audio item this response answers (server-started responses). */
  userItemId: string | undefined;
  /** The turn stopped reading (interruption); later events are dropped. */
  abandoned = false;
  #parts: ModelStreamPart[] = [];
  #held: ModelStreamPart[] = [];
  #seen = new Set<string>();
  #done = false;
  #chars = 0;
  #error: ModelError | undefined;
  #wake: (() => void) | undefined;
  readonly #holds: (toolName: string) => boolean;

  constructor(options: { id: string; owner: ResponseOwner; holds: (toolName: string) => boolean }) {
    this.id = options.id;
    this.owner = options.owner;
    this.#holds = options.holds;
  }

  get done(): boolean {
    return this.#done;
  }

  /** Parts held for the turn (read parts are gone). */
  get kept(): number {
    return this.#parts.length + this.#held.length;
  }

  /** True when this call id was already seen in this response (run or skipped). */
  has(callId: string): boolean {
    return this.#seen.has(callId);
  }

  /** Returns false when the delta broke the response's bounds (the response failed). */
  text(delta: string): boolean {
    if (delta === '' || this.#done) return true;
    if (!this.#within(0, delta.length)) return false;
    this.#push({ type: 'text-delta', text: delta });
    return true;
  }

  /** Marks a call id as seen without running it (a replay of an earlier response's call). */
  skip(callId: string): boolean {
    if (this.#done || this.#seen.has(callId)) return true;
    if (!this.#within(1, 0)) return false;
    this.#seen.add(callId);
    return true;
  }

  /**
   * A complete function call; the same `call_id` seen twice (delta `done` and `response.done`)
   * counts once. Returns false when the call broke the response's bounds (the response failed).
   */
  call(callId: string, name: string, args: string): boolean {
    if (this.#done || this.#seen.has(callId)) return true;
    if (!this.#within(1, args.length + name.length)) return false;
    this.#seen.add(callId);
    const part: ModelStreamPart = {
      type: 'tool-call',
      call: { id: callId, name, arguments: args },
    };
    if (this.#holds(name)) this.#held.push(part);
    else this.#push(part);
    return true;
  }

  finish(usage: ModelUsage | undefined): void {
    if (this.#done) return;
    for (const part of this.#held) this.#parts.push(part);
    this.#held = [];
    this.#parts.push(usage === undefined ? { type: 'finish' } : { type: 'finish', usage });
    this.#done = true;
    this.#notify();
  }

  fail(error: ModelError): void {
    if (this.#done) return;
    this.#error = error;
    this.#done = true;
    this.#notify();
  }

  /** Reads the parts until `finish`, a failure, or `signal` aborts. */
  async *read(signal: AbortSignal): AsyncGenerator<ModelStreamPart> {
    const onAbort = (): void => this.#notify();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        if (signal.aborted) return;
        const part = this.#parts.shift();
        if (part !== undefined) {
          yield part;
          if (part.type === 'finish') return;
          continue;
        }
        if (this.#error !== undefined) throw this.#error;
        if (this.#done) return;
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** Counts `calls` more call ids and `chars` more characters, failing the response past a bound. */
  #within(calls: number, chars: number): boolean {
    this.#chars += chars;
    const tooMany = this.#seen.size + calls > MAX_RESPONSE_CALLS;
    if (!tooMany && this.#chars <= MAX_RESPONSE_CHARS) return true;
    const what = tooMany
      ? `more than ${MAX_RESPONSE_CALLS} function calls`
      : `more than ${MAX_RESPONSE_CHARS} characters of transcript and arguments`;
    // Over a bound, what the response held is dropped: the turn reads the error alone.
    this.#parts = [];
    this.#held = [];
    this.#seen.clear();
    this.fail(
      new ModelError({
        code: 'bad_response',
        model: 'realtime',
        message: `realtime: response ${this.id} carried ${what}`,
      }),
    );
    return false;
  }

  #push(part: ModelStreamPart): void {
    this.#parts.push(part);
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
