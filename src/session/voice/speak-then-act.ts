/**
 * Speak-then-act (`options.speech.after_speech`, docs/voice.md): a call of such a tool is
 * dispatched only after every utterance emitted before it in the turn was acknowledged, capped by
 * `max_wait_ms`. The farewell is heard in full before the hang-up. With `speechAck: 'auto'`
 * nothing is ever pending, so there is no wait and dispatch stays synchronous.
 *
 * The rule lives here only: when a wait starts, the turn emits a `speech-wait` event naming the
 * utterances waited for, so hosts (the studio's timeline, the REPL's `playback>` prompt) follow
 * the decision instead of re-deriving it from earlier events.
 */
import type { ToolDefinition } from '../../definition/types.js';
import type { ExecuteContext } from '../execute-tool-call.js';
import type { SpeechWait } from '../types.js';
import type { SpeechLedger } from './speech-ledger.js';

/**
 * The wait before dispatching call `callId` of `tool`, or undefined when it may be dispatched now
 * (the tool does not wait for speech, or nothing is pending). A wait is announced with a
 * `speech-wait` event before it starts.
 */
export function speechGate(
  tool: ToolDefinition,
  callId: string,
  ledger: SpeechLedger,
  ctx: Pick<ExecuteContext, 'signal' | 'emit' | 'now'>,
): Promise<SpeechWait> | undefined {
  const { speech } = tool.options;
  if (!speech.afterSpeech) return undefined;
  const speechIds = ledger.pendingInTurn();
  if (speechIds.length === 0) return undefined;
  const { signal, now } = ctx;
  ctx.emit({
    type: 'speech-wait',
    callId,
    tool: tool.name,
    speechIds,
    maxWaitMs: speech.maxWaitMs,
  });
  const startedAt = now();
  return ledger
    .waitFor(speechIds, speech.maxWaitMs, signal)
    .then((outcome) => ({ waitedMs: Math.max(0, now() - startedAt), outcome, speechIds }));
}
