/**
 * Helpers of the RELIABILITY.md suite: definition builders for the real loader, and readers of
 * what a session showed the model.
 */
import type { ChatMessage } from '../../src/models/types.js';
import type { ScriptedModel } from '../../src/testing.js';

/** An OpenAI function spec with a closed object schema. */
export function fn(
  name: string,
  properties: Record<string, unknown> = {},
  required: string[] = [],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'function',
    function: {
      name,
      parameters: { type: 'object', properties, required, additionalProperties: false, ...extra },
    },
  };
}

/** The tool messages the model was sent on its `call`-th call (0-based). */
export function toolMessages(model: ScriptedModel, call: number): string[] {
  const messages: readonly ChatMessage[] = model.calls[call]?.messages ?? [];
  return messages.flatMap((m) => (m.role === 'tool' ? [m.content] : []));
}

/** The last tool message the model was sent on its `call`-th call. */
export function lastToolMessage(model: ScriptedModel, call: number): string {
  return toolMessages(model, call).at(-1) ?? '';
}
