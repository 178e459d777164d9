/**
 * One Realtime `response` as the turn loop reads it: the server's events for that response become
 * model stream parts (transcript deltas → `text-delta`, function calls → `tool-call`, `response.done`
 * → `finish`), buffered until the turn reads them, since a response may start before the turn that
 * claims it does (the caller spoke while the previous turn was still finishing).
 *
 * Calls to `action` tools are held back until `response.done`: a hang-up or a transfer never runs
 * while the model is still producing the audio of the same answer.
 */
import { ModelError } from '../models/errors.js';
import type { ModelStreamPart, ModelUsage } from '../models/types.js';

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

  text(delta: string): void {
    if (delta !== '' && !this.#done) this.#push({ type: 'text-delta', text: delta });
  }

  /** A complete function call; the same `call_id` seen twice (delta `done` and `response.done`) counts once. */
  call(callId: string, name: string, args: string): void {
    if (this.#done || this.#seen.has(callId)) return;
    this.#seen.add(callId);
    const part: ModelStreamPart = {
      type: 'tool-call',
      call: { id: callId, name, arguments: args },
    };
    if (this.#holds(name)) this.#held.push(part);
    else this.#push(part);
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
