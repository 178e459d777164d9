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
export function speechGate(options: {
  readonly tool: ToolDefinition;
  readonly ledger: SpeechLedger;
  readonly signal: AbortSignal;
  readonly now: () => number;
}): Promise<SpeechWait> | undefined {
  const { speech } = options.tool.options;
  if (!speech.afterSpeech) return undefined;
  const speechIds = options.ledger.pendingInTurn();
  if (speechIds.length === 0) return undefined;
  const startedAt = options.now();
  return options.ledger
    .waitFor(speechIds, speech.maxWaitMs, options.signal)
    .then((outcome) => ({ waitedMs: Math.max(0, options.now() - startedAt), outcome, speechIds }));
}
