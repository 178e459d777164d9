/**
 * The log handler (docs/handlers.md): records the arguments as a `log` effect (the session emits a `log`
 * event and keeps them in the trace) and returns the definition's `result` or `{"status":"logged"}`.
 */
import { copyValue, errorBody, finishOutcome, neverThrow } from './outcome.js';
import type { Handler, HandlerOutcome } from './types.js';

/** Options of {@link createLogHandler}. */
export interface LogHandlerOptions {
  /** Clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

/** Creates the handler of `log` tools. */
export function createLogHandler(options: LogHandlerOptions = {}): Handler {
  const now = options.now ?? Date.now;
  return {
    kind: 'log',
    execute: (args, context): Promise<HandlerOutcome> =>
      neverThrow(now, async (startedAt) => {
        if (context.signal.aborted)
          return finishOutcome(errorBody('cancelled', 'the call was cancelled'), startedAt, now());
        const output = context.tool.hasResult
          ? copyValue(context.tool.result)
          : { status: 'logged' };
        return finishOutcome(
          { type: 'success', output, effects: [{ type: 'log', args: copyValue({ ...args }) }] },
          startedAt,
          now(),
        );
      }),
  };
}
