/**
 * Wraps any model and records what it answered on each call, as fixture model steps (text and
 * tool calls), so a live session can be saved as a fixture whose scripted model says the same.
 */
import { isModelError, scrubModelError } from '../models/errors.js';
import type { Model, ModelRequest, ModelStreamPart } from '../models/types.js';
import { checkWrapped, wrappedCapabilities } from '../models/wrap.js';
import type { ModelStep, ScriptedToolCall } from './fixture-schema.js';

/** A model that remembers its answers. */
export class RecordingModel implements Model {
  readonly name: string;
  readonly #inner: Model;
  /** Every answer so far, in order. */
  readonly steps: ModelStep[] = [];
  /** The wrapped model's, when it has them (models/wrap.ts). */
  declare readonly credentials?: () => readonly string[];

  constructor(inner: Model) {
    checkWrapped('RecordingModel', inner);
    this.#inner = inner;
    this.name = inner.name;
    Object.assign(this, wrappedCapabilities(inner));
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    const inner = this.#inner;
    const steps = this.steps;
    return {
      async *[Symbol.asyncIterator]() {
        let text = '';
        const calls: ScriptedToolCall[] = [];
        let finished = false;
        let failed: string | undefined;
        try {
          for await (const part of inner.stream(request)) {
            if (part.type === 'text-delta') text += part.text;
            else if (part.type === 'tool-call')
              calls.push(toScripted(part.call.name, part.call.arguments));
            yield part;
          }
          finished = true;
        } catch (err) {
          // A failed call is a step too (`error`), so the replay fails where the turn expects
          // `model_error`; the key is scrubbed as the session scrubs it.
          if (isModelError(err)) failed = scrubModelError(err, inner.credentials?.() ?? []).message;
          throw err;
        } finally {
          if (failed !== undefined) steps.push({ error: failed });
          // An interrupted answer is recorded too: the replay must say what the caller heard.
          else if (finished || text !== '' || calls.length > 0) {
            steps.push({
              ...(text !== '' || calls.length === 0 ? { text } : {}),
              ...(calls.length > 0 ? { tool_calls: calls } : {}),
            });
          }
        }
      },
    };
  }
}

function toScripted(name: string, raw: string): ScriptedToolCall {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return { name, args: parsed as Record<string, unknown> };
    }
  } catch {
    // Kept verbatim below: the replay must send the same malformed text.
  }
  return { name, arguments: raw };
}
