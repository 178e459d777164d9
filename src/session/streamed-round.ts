/**
 * A round whose model stream has ended (run-round.ts makes it): the turn awaits its calls, then
 * `end()` records the round in history and gives its outcome. It exists so that a call that
 * waits (for a connection, say) holds the turn's frame, not the round's (performance-notes.md).
 */
import type { ModelToolCall, ModelUsage } from '../models/types.js';
import type { ModelError } from '../models/errors.js';
import type { ToolCallResult } from './execute-tool-call.js';
import type { TurnHost } from './turn-host.js';
import type { TurnController } from './turn-signals.js';
import type { RoundSpeech } from './voice/round-speech.js';

/** What one round produced. */
export interface RoundOutcome {
  /** The text of the model's answer (possibly partial when interrupted). */
  readonly text: string;
  /** Finished calls, in call order. */
  readonly results: readonly ToolCallResult[];
  readonly usage: ModelUsage;
  readonly interrupted: boolean;
  readonly error?: ModelError;
  /** Tool calls that workflow activation made before the model call (already applied). */
  readonly activation: readonly ToolCallResult[];
}

export const NO_RESULTS: readonly ToolCallResult[] = Object.freeze([]);

/**
 * A round whose model stream has ended: `running` settles when its calls have finished (none
 * running: undefined), and `end()` then records them in history and gives the round's outcome.
 */
export class StreamedRound {
  readonly #host: TurnHost;
  readonly #turn: TurnController;
  readonly #text: string;
  readonly #usage: ModelUsage;
  readonly #error: ModelError | undefined;
  readonly #activation: readonly ToolCallResult[];
  readonly #speech: RoundSpeech | undefined;
  readonly #calls: readonly ModelToolCall[];
  readonly #finished: readonly (ToolCallResult | undefined)[];
  /** Settles once every call of the round has finished; undefined when none was started. */
  readonly running: Promise<unknown> | undefined;

  constructor(
    host: TurnHost,
    turn: TurnController,
    text: string,
    usage: ModelUsage,
    error: ModelError | undefined,
    activation: readonly ToolCallResult[],
    speech: RoundSpeech | undefined,
    calls: readonly ModelToolCall[],
    finished: readonly (ToolCallResult | undefined)[],
    running: Promise<unknown> | undefined,
  ) {
    this.#host = host;
    this.#turn = turn;
    this.#text = text;
    this.#usage = usage;
    this.#error = error;
    this.#activation = activation;
    this.#speech = speech;
    this.#calls = calls;
    this.#finished = finished;
    this.running = running;
  }

  /** After `running` settled: the round's messages go to history; its outcome. */
  end(): RoundOutcome {
    this.#speech?.stop();
    const text = this.#text;
    const calls = this.#calls;
    const finished = this.#finished;
    const history = this.#host.state.history;
    if (text !== '' || calls.length > 0) {
      const content = text === '' ? null : text;
      history.push(
        calls.length === 0
          ? { role: 'assistant', content }
          : {
              role: 'assistant',
              content,
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            },
      );
    }
    // When every call has its result (unless a round is cut short), `finished` is the results.
    let complete = true;
    for (const r of finished) {
      if (r === undefined) {
        complete = false;
        continue;
      }
      history.push({ role: 'tool', tool_call_id: r.call.id, content: r.content });
    }
    const results: readonly ToolCallResult[] =
      finished.length === 0
        ? NO_RESULTS
        : complete
          ? (finished as ToolCallResult[])
          : finished.filter((r): r is ToolCallResult => r !== undefined);
    const interrupted = this.#turn.stopped;
    const usage = this.#usage;
    const activation = this.#activation;
    const error = this.#error;
    return error === undefined
      ? { text, results, usage, interrupted, activation }
      : { text, results, usage, interrupted, error, activation };
  }
}
