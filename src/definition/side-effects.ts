/**
 * Side-effect classes (`options.side_effects`, docs/voice.md): what running a tool does to the
 * world, and so what the engine may do with a call of it — cancel it on barge-in, retry it, run it
 * once for two identical requests, keep it running after the session closed. This is the one
 * place that answers those questions; the endpoint handler, the turn loop and tool-call journals
 * (session stores) ask {@link sideEffectClass} or the questions below, which read the same field.
 */
import { hash } from 'node:crypto';
import { argumentError, choiceError } from '../option-checks.js';
import type { HttpMethod, SideEffectClass, ToolDefinition, ToolType } from './types.js';

/** Every class, from harmless to unsafe. */
export const SIDE_EFFECT_CLASSES = [
  'none',
  'idempotent',
  'unsafe',
] as const satisfies readonly SideEffectClass[];

/**
 * The class a definition gets when it does not say: endpoint `get` → `none`, `put`/`delete` →
 * `idempotent`, `post` → `unsafe`; `action` and `command` → `unsafe` (the host, or a program,
 * acts in the world); `context`
 * and `log` → `none` (they only describe effects, which the session applies after the result is
 * in, so a cancelled call leaves no trace).
 */
export function defaultSideEffectClass(
  type: ToolType,
  method: HttpMethod | undefined,
): SideEffectClass {
  switch (type) {
    case 'endpoint':
      return method === 'post' ? 'unsafe' : method === 'get' ? 'none' : 'idempotent';
    case 'action':
    case 'command':
      return 'unsafe';
    case 'context':
    case 'log':
      return 'none';
    default: {
      // Reached only from JavaScript, with something that is no tool type.
      const other: never = type;
      throw choiceError('defaultSideEffectClass(type)', TOOL_TYPES, other);
    }
  }
}

/**
 * The side-effect class of a loaded tool: `options.side_effects` as written, else the default of
 * its type and method ({@link defaultSideEffectClass}).
 */
export function sideEffectClass(tool: ToolDefinition): SideEffectClass {
  return classOf('sideEffectClass', tool);
}

const TOOL_TYPES: readonly ToolType[] = ['endpoint', 'action', 'command', 'context', 'log'];

/**
 * A loaded tool's class; a TypeError naming the function when `tool` is none (these are called by
 * hosts from JavaScript as well as by the engine, whose tools always have one).
 */
function classOf(fn: string, tool: ToolDefinition): SideEffectClass {
  const options = (tool as { options?: { sideEffects?: SideEffectClass } } | null | undefined)
    ?.options;
  const found = typeof options === 'object' && options !== null ? options.sideEffects : undefined;
  if (typeof found === 'string') return found;
  throw argumentError(`${fn}(tool)`, 'a loaded tool definition (from loadTools)', tool);
}

/**
 * True if a barge-in (or closing the session) may cancel a running call: class `none` only.
 * `idempotent` and `unsafe` calls already started run to completion and their result is kept, so
 * they are never repeated.
 */
export function isCancellable(tool: ToolDefinition): boolean {
  return classOf('isCancellable', tool) === 'none';
}

/** True if the engine may send a failed request again (network errors, 429/502/503/504). */
export function mayRetry(tool: ToolDefinition): boolean {
  return classOf('mayRetry', tool) !== 'unsafe';
}

/**
 * True if two calls of this tool with the same final arguments in one round run once (both call
 * ids get the result): `idempotent` (the second is pointless) and `unsafe` (the second is harmful).
 */
export function dedupesIdenticalCalls(tool: ToolDefinition): boolean {
  return classOf('dedupesIdenticalCalls', tool) !== 'none';
}

/**
 * The `Idempotency-Key` of an `unsafe` endpoint call: a digest of the session id and the call id,
 * so it is the same on every retry of the call and after the session is restored from its state
 * (the call id lives in the history), and different for every other call.
 */
export function idempotencyKey(sessionId: string, callId: string): string {
  // One-shot `hash` (Node ≥ 20.12): no Hash object per call; the same digest.
  return hash('sha256', `${sessionId}\u0000${callId}`, 'hex').slice(0, 32);
}
