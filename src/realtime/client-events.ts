/**
 * Reads client events into the loopback server's state: `session.update` into its config, and a
 * `conversation.item.create` item into a conversation item (or none when unsupported).
 */
import type { LoopbackItem, RealtimeLoopback } from './realtime-loopback.js';

/** Applies the fields of a `session.update` the server understands; others are ignored. */
export function applySessionUpdate(config: RealtimeLoopback['config'], session: unknown): void {
  if (!isObject(session)) return;
  if (typeof session.instructions === 'string') config.instructions = session.instructions;
  if (Array.isArray(session.tools)) config.tools = session.tools.filter(isObject);
  const audio = isObject(session.audio) ? session.audio : undefined;
  const input = isObject(audio?.input) ? audio.input : undefined;
  const transcription = isObject(input?.transcription) ? input.transcription : undefined;
  if (typeof transcription?.language === 'string')
    config.transcriptionLanguage = transcription.language;
}

/** The item a client created: a function call's output or a user message; else undefined. */
export function clientItem(raw: Record<string, unknown>, id: string): LoopbackItem | undefined {
  if (
    raw.type === 'function_call_output' &&
    typeof raw.call_id === 'string' &&
    typeof raw.output === 'string'
  ) {
    return { id, type: 'function_call_output', call_id: raw.call_id, output: raw.output };
  } else if (raw.type === 'message' && raw.role === 'user' && Array.isArray(raw.content)) {
    const text = raw.content
      .map((c: unknown) => (isObject(c) && typeof c.text === 'string' ? c.text : ''))
      .join('');
    return { id, type: 'message', role: 'user', text };
  }
  return undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
