/**
 * Speak-then-act (`options.speech.after_speech`, docs/voice.md): a call of such a tool is
 * dispatched only after every utterance emitted before it in the turn was acknowledged, capped by
 * `max_wait_ms`. The farewell is heard in full before the hang-up. With `speechAck: 'auto'`
 * nothing is ever pending, so there is no wait and dispatch stays synchronous.
 */
import type { ToolDefinition } from '../../definition/types.js';
import type { SpeechWait } from '../types.js';
import type { SpeechLedger } from './speech-ledger.js';

/**
 * The wait before dispatching a call of `tool`, or undefined when it may be dispatched now (the
 * tool does not wait for speech, or nothing is pending).
 */
export function speechGate(
  tool: ToolDefinition,
  ledger: SpeechLedger,
  signal: AbortSignal,
  now: () => number,
): Promise<SpeechWait> | undefined {
  const { speech } = tool.options;
  if (!speech.afterSpeech) return undefined;
  const speechIds = ledger.pendingInTurn();
  if (speechIds.length === 0) return undefined;
  const startedAt = now();
  return ledger
    .waitFor(speechIds, speech.maxWaitMs, signal)
    .then((outcome) => ({ waitedMs: Math.max(0, now() - startedAt), outcome, speechIds }));
}
