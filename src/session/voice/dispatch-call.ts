/**
 * Dispatch of one prepared call under the voice policy of its tool (docs/voice.md), in this order:
 * dedupe (an identical `idempotent`/`unsafe` call of the round already started: share its result)
 * → barge-in lock (`interruptible: false`) → pre-tool speech and bridge phrases → speak-then-act
 * wait (`after_speech`) → background start (`{"status":"started"}` now, the real result later) or
 * the call itself. When nothing has to wait, the call is dispatched synchronously, exactly as
 * without a voice policy.
 */
import { dedupesIdenticalCalls } from '../../definition/side-effects.js';
import { ToolError } from '../../errors.js';
import type { ModelToolCall } from '../../models/types.js';
import type { ToolCallTrace } from '../../observability/turn-tracing.js';
import { executeToolCall, type ExecuteContext, type ToolCallResult } from '../execute-tool-call.js';
import type { PreparedCall } from '../prepare-tool-call.js';
import type { TurnHost } from '../turn-host.js';
import type { SpeechWait } from '../types.js';
import { startedResult } from './background-calls.js';
import { dedupedResult, type RoundCalls } from './dedupe.js';
import type { RoundSpeech } from './round-speech.js';
import { speechGate } from './speak-then-act.js';

/** Everything one dispatch needs. */
export interface DispatchOptions {
  readonly host: TurnHost;
  readonly call: ModelToolCall;
  readonly prepared: PreparedCall;
  readonly startedAt: number;
  readonly execCtx: ExecuteContext;
  readonly trace?: ToolCallTrace | undefined;
  /** The round's speech schedule; none when the tool cannot speak (`maySpeak`). */
  readonly speech: RoundSpeech | undefined;
  /** Calls of this round that dedupe applies to. */
  readonly started: RoundCalls;
}

/** Dispatches the call; never rejects. */
export function dispatchCall(o: DispatchOptions): Promise<ToolCallResult> {
  const { host, call, prepared, execCtx } = o;
  if (!prepared.ok) return executeToolCall(call, prepared, o.startedAt, execCtx, o.trace);
  const { tool } = prepared;
  const background = tool.options.background;
  const dedupes = !background && dedupesIdenticalCalls(tool);
  if (dedupes) {
    const first = o.started.find(tool.name, prepared.args);
    if (first !== undefined) return first.then((r) => dedupedResult(r, call));
  }
  const release = tool.options.speech.interruptible ? undefined : host.bargeIn.hold();
  let done = false;
  const watched = o.speech !== undefined && o.speech.callStarted(tool, () => done);
  const gate = speechGate(tool, call.id, host.speech, execCtx);

  const run = (wait: SpeechWait | undefined): Promise<ToolCallResult> => {
    const startedAt = wait === undefined ? o.startedAt : host.now();
    if (wait?.outcome === 'interrupted') {
      // Never dispatched, so cancelling is safe whatever the side-effect class.
      const error = new ToolError(
        'cancelled',
        'the call was cancelled before it started because the caller interrupted',
      );
      return executeToolCall(
        call,
        { ok: false, tool, args: prepared.args, transform: prepared.transform, error },
        startedAt,
        execCtx,
        o.trace,
      ).then((r) => withWait(r, wait));
    }
    if (background) {
      host.background.start(
        tool,
        (signal) => executeToolCall(call, prepared, host.now(), { ...execCtx, signal }),
        (result, closed) => host.backgroundFinished(result, closed),
      );
      return Promise.resolve(
        withWait(startedResult(call, prepared.args, prepared.transform), wait),
      );
    }
    const running = executeToolCall(call, prepared, startedAt, execCtx, o.trace);
    // Without a wait there is nothing to add: no extra promise per call.
    return wait === undefined ? running : running.then((r) => withWait(r, wait));
  };
  const running = gate === undefined ? run(undefined) : gate.then(run);
  // Nobody watches the call's end (no phrase scheduled, no barge-in lock): no extra promise.
  const result =
    !watched && release === undefined
      ? running
      : running.then((r) => {
          done = true;
          release?.();
          return r;
        });
  if (dedupes) o.started.add(tool.name, prepared.args, result);
  return result;
}

function withWait(result: ToolCallResult, wait: SpeechWait | undefined): ToolCallResult {
  // Object.assign, not a key after a spread (a hidden class per trace once optimized).
  return wait === undefined
    ? result
    : { ...result, trace: Object.assign({}, result.trace, { speechWait: wait }) };
}
