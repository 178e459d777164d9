/**
 * Background tools (`options.background: true`, docs/voice.md). The model gets
 * `{"status":"started"}` at once, the real call runs on outside the turn (a barge-in never cancels
 * it), and its result is handed to the session, which starts a turn of its own
 * (`turn-start` with `reason: 'tool-result'`) serialised with caller turns. Closing the session
 * cancels calls whose side-effect class is `none` and lets the others finish (their results are
 * kept in history, never repeated).
 */
import { isCancellable } from '../../definition/side-effects.js';
import type { ToolDefinition } from '../../definition/types.js';
import type { ModelToolCall } from '../../models/types.js';
import type { ToolCallResult } from '../execute-tool-call.js';
import type { ToolTrace } from '../types.js';

/** The content the model receives for a background call when it starts. */
export const BACKGROUND_STARTED = { status: 'started' } as const;

/** The immediate result of a background call: `{"status":"started"}`, no effects. */
export function startedResult(
  call: ModelToolCall,
  args: Record<string, unknown>,
  transform: ToolTrace['transform'],
): ToolCallResult {
  return {
    call,
    trace: {
      tool: call.name,
      args,
      output: { ...BACKGROUND_STARTED },
      duration_secs: 0,
      callId: call.id,
      rawArguments: call.arguments,
      isError: false,
      transform,
      requests: [],
      background: 'started',
    },
    effects: [],
    content: JSON.stringify(BACKGROUND_STARTED),
  };
}

/** The system message that hands a background result to the model. */
export function backgroundResultMessage(result: ToolCallResult): string {
  return (
    backgroundResultPrefix(result.call.name, result.call.id, result.trace.isError) + result.content
  );
}

/**
 * How {@link backgroundResultMessage} begins for call `id` of tool `name`: the only system message
 * a session keeps in its history, so a snapshot check recognises it (snapshot.ts).
 */
export function backgroundResultPrefix(name: string, id: string, failed: boolean): string {
  return `The background call ${name} (id ${id}) ${failed ? 'failed' : 'finished'}. Its result: `;
}

/** The background calls of one session. */
export class BackgroundCalls {
  // Made on the first background call: most sessions never make one.
  #running: Map<Promise<void>, { controller: AbortController; tool: ToolDefinition }> | undefined;
  #closed = false;

  /** Number of calls in flight. */
  get size(): number {
    return this.#running?.size ?? 0;
  }

  /**
   * Runs `work` with a signal only closing the session aborts (for class `none`); hands the result
   * to `onResult` with `closed` true when the session closed meanwhile.
   */
  start(
    tool: ToolDefinition,
    work: (signal: AbortSignal) => Promise<ToolCallResult>,
    onResult: (result: ToolCallResult, closed: boolean) => void,
  ): void {
    const controller = new AbortController();
    if (this.#closed && isCancellable(tool)) controller.abort();
    const running = (this.#running ??= new Map());
    const done = work(controller.signal).then(
      (result) => {
        running.delete(done);
        onResult(result, this.#closed);
      },
      () => {
        // executeToolCall never rejects; nothing to hand over if it somehow did.
        running.delete(done);
      },
    );
    running.set(done, { controller, tool });
  }

  /** Closing: cancels calls of class `none`, waits for every call to settle. */
  async close(): Promise<void> {
    this.#closed = true;
    const running = this.#running;
    if (running === undefined) return;
    for (const { controller, tool } of running.values())
      if (isCancellable(tool)) controller.abort();
    while (running.size > 0) await Promise.all([...running.keys()]);
  }

  /** Resolves when no call is in flight. */
  async settled(): Promise<void> {
    const running = this.#running;
    if (running === undefined) return;
    while (running.size > 0) await Promise.all([...running.keys()]);
  }
}
