/**
 * Dedupe of identical calls (docs/voice.md): two calls of one tool with the same final arguments
 * in one round run once when the tool's side-effect class is `idempotent` or `unsafe`; the second
 * call id gets the first call's result (and no second copy of its effects).
 */
import type { ToolCallResult } from '../execute-tool-call.js';
import type { ModelToolCall } from '../../models/types.js';
import { append } from '../../small-arrays.js';

/**
 * The calls of one round that dedupe applies to, by tool. A call's identity is its tool and its
 * final arguments as canonical JSON (keys sorted); that JSON is computed only when a second call
 * of the same tool arrives, so the usual round (one call per tool) computes none.
 */
export class RoundCalls {
  // An array, not a map by tool: a round makes a handful of calls, and most rounds one.
  // Grown with `append`: a first `push` would reserve 17 slots, held while the calls run.
  #calls: {
    readonly tool: string;
    readonly args: unknown;
    key?: string;
    readonly result: Promise<ToolCallResult>;
  }[] = [];

  /** The running or finished call of `tool` with the same final arguments, if any. */
  find(tool: string, args: Record<string, unknown>): Promise<ToolCallResult> | undefined {
    let key: string | undefined;
    for (const entry of this.#calls) {
      if (entry.tool !== tool) continue;
      key ??= canonicalJson(args);
      entry.key ??= canonicalJson(entry.args);
      if (entry.key === key) return entry.result;
    }
    return undefined;
  }

  /** Records a dispatched call. */
  add(tool: string, args: Record<string, unknown>, result: Promise<ToolCallResult>): void {
    this.#calls = append(this.#calls, { tool, args, result });
  }
}

/** The second call's result: the first one's output under its own id, without effects. */
export function dedupedResult(first: ToolCallResult, call: ModelToolCall): ToolCallResult {
  return {
    call,
    // Object.assign, not keys after a spread (a hidden class per trace once optimized).
    trace: Object.assign({}, first.trace, {
      callId: call.id,
      rawArguments: call.arguments,
      duration_secs: 0,
      requests: [],
      dedupedFrom: first.call.id,
    }),
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
