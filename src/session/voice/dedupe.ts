/**
 * Dedupe of identical calls (docs/voice.md): two calls of one tool with the same final arguments
 * in one round run once when the tool's side-effect class is `idempotent` or `unsafe`; the second
 * call id gets the first call's result (and no second copy of its effects).
 */
import type { ToolCallResult } from '../execute-tool-call.js';
import type { ModelToolCall } from '../../models/types.js';

/** The identity of a call: tool name and final arguments as canonical JSON (keys sorted). */
export function dedupeKey(tool: string, args: Record<string, unknown>): string {
  return `${tool}\u0000${canonicalJson(args)}`;
}

/** The second call's result: the first one's output under its own id, without effects. */
export function dedupedResult(first: ToolCallResult, call: ModelToolCall): ToolCallResult {
  return {
    call,
    trace: {
      ...first.trace,
      callId: call.id,
      rawArguments: call.arguments,
      duration_secs: 0,
      requests: [],
      dedupedFrom: first.call.id,
    },
    effects: [],
    content: first.content,
  };
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
