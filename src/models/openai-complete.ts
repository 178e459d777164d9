/**
 * What the OpenAI adapter reads besides streamed chunks: the token counts of an answer, and a
 * whole `chat.completion` object from a server that ignores `stream: true` (some small
 * OpenAI-compatible servers and proxies answer `application/json` to every request). Read as an
 * empty stream, such an answer would end the turn with no text and no error.
 */
import { isPlainObject } from '../own-data.js';
import { ModelError } from './errors.js';
import type { ModelStreamPart, ModelUsage } from './types.js';

/**
 * The server's token counts; a count it left out or sent as something else than a whole
 * non-negative number is 0, so sums over a turn stay numbers.
 */
export function usageOf(usage: {
  readonly prompt_tokens?: unknown;
  readonly completion_tokens?: unknown;
}): ModelUsage {
  return {
    inputTokens: tokens(usage.prompt_tokens),
    outputTokens: tokens(usage.completion_tokens),
  };
}

function tokens(n: unknown): number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** True when the answer is one JSON document rather than a server-sent event stream. */
export function isJsonAnswer(contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * The parts of a complete (non-streamed) chat completion: its first choice's text, its tool
 * calls in order, and a `finish` with the usage. `maxCalls` caps the calls as for a stream.
 */
export function completionParts(body: unknown, model: string, maxCalls: number): ModelStreamPart[] {
  const bad = (why: string): never => {
    throw new ModelError({
      code: 'bad_response',
      model,
      message: `model ${model} answered a streamed request with one JSON document ${why}`,
    });
  };
  if (!isPlainObject(body)) return bad('that is not an object');
  if (isPlainObject(body['error'])) {
    const message = body['error']['message'];
    return bad(
      `holding an error: ${typeof message === 'string' ? message.slice(0, 300) : 'no message'}`,
    );
  }
  const choices = body['choices'];
  if (!Array.isArray(choices)) return bad('without "choices"; is it a chat completion?');
  const parts: ModelStreamPart[] = [];
  const choice: unknown = choices.find((c) => isPlainObject(c) && (c['index'] ?? 0) === 0);
  const message = isPlainObject(choice) ? choice['message'] : undefined;
  if (choice !== undefined && !isPlainObject(message))
    return bad('whose choices[0] has no "message"');
  if (isPlainObject(message)) {
    const content = message['content'];
    if (typeof content === 'string' && content !== '')
      parts.push({ type: 'text-delta', text: content });
    const calls = message['tool_calls'] ?? [];
    if (!Array.isArray(calls)) return bad('whose choices[0].message.tool_calls is not a list');
    if (calls.length > maxCalls) return bad(`with more than ${maxCalls} tool calls`);
    calls.forEach((call: unknown, n) => {
      const fn = isPlainObject(call) ? call['function'] : undefined;
      if (!isPlainObject(call) || !isPlainObject(fn) || typeof fn['name'] !== 'string')
        return bad(`whose choices[0].message.tool_calls[${n}] has no function name`);
      const args = fn['arguments'] ?? '';
      parts.push({
        type: 'tool-call',
        call: {
          id: typeof call['id'] === 'string' ? call['id'] : '',
          name: fn['name'],
          // Some servers send the arguments as an object rather than JSON text.
          arguments: typeof args === 'string' ? args : JSON.stringify(args),
        },
      });
    });
  }
  const usage = body['usage'];
  parts.push(isPlainObject(usage) ? { type: 'finish', usage: usageOf(usage) } : { type: 'finish' });
  return parts;
}
