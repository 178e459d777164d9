/** The `type` of every session event, for checking a fixture's `expect.events` at load. */
import type { SessionEvent } from '../session/types.js';

// A Record over the union: a new event type that is not added here fails to compile.
const TYPES: Record<SessionEvent['type'], true> = {
  'turn-start': true,
  'text-delta': true,
  'tool-call': true,
  'tool-result': true,
  'tool-error': true,
  'http-request': true,
  'http-response': true,
  action: true,
  command: true,
  say: true,
  spoken: true,
  'speech-wait': true,
  language: true,
  vars: true,
  log: true,
  handoff: true,
  interrupted: true,
  'max-rounds': true,
  'model-error': true,
  'session-end': true,
  workflow: true,
  'turn-end': true,
};

export const SESSION_EVENT_TYPES: readonly string[] = Object.keys(TYPES);
