/**
 * The action handler (SPEC §3): runs the host's handler registered under the tool's name, under a
 * deadline, and returns to the model, in order of preference, the handler's value, the
 * definition's `result`, or `{"status":"ok"}`. An `actionResult(...)` adds session effects.
 */
import { ToolError } from '../errors.js';
import { isActionResult, type BrandedActionResult } from './action-result.js';
import {
  copyValue,
  errorBody,
  finishOutcome,
  neverThrow,
  shortMessage,
  type OutcomeBody,
} from './outcome.js';
import type {
  ActionHandler,
  Handler,
  HandlerContext,
  HandlerOutcome,
  SessionEffect,
} from './types.js';

/** Default deadline of a host action handler, seconds. */
export const DEFAULT_ACTION_TIMEOUT_SECS = 20;

/** Options of {@link createActionHandler}. */
export interface ActionHandlerOptions {
  /** Host handlers by tool name. */
  readonly actions: ReadonlyMap<string, ActionHandler>;
  /** Deadline of one host handler call. Default {@link DEFAULT_ACTION_TIMEOUT_SECS}. */
  readonly timeoutSecs?: number;
  /** Clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

/** The session effects of a branded action result, in the order the session applies them. */
function effectsOf(result: BrandedActionResult): SessionEffect[] {
  const effects: SessionEffect[] = [];
  if (result.vars !== undefined) effects.push({ type: 'set-vars', vars: { ...result.vars } });
  if (result.say !== undefined && result.say !== '')
    effects.push({ type: 'say', text: result.say });
  if (result.handoff !== undefined) effects.push({ type: 'handoff', agent: result.handoff });
  const end = result.endSession;
  if (end === true) effects.push({ type: 'end-session' });
  else if (typeof end === 'object')
    effects.push(
      end.reason === undefined
        ? { type: 'end-session' }
        : { type: 'end-session', reason: end.reason },
    );
  return effects;
}

/**
 * A result shaped like a ToolResult that says it failed — an object whose own `success` is
 * `false` — is the tool's failure (docs/handlers.md): a `handler_error` whose message is the
 * result's `error` (or `message`) string, with the whole result in `details.result` so the model
 * still sees everything the handler said. Like any failure it is never saved, propagated or
 * followed by the definition's handoff. Undefined for any other value.
 */
function reportedFailure(
  tool: string,
  output: unknown,
  effects: readonly SessionEffect[],
): OutcomeBody | undefined {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return undefined;
  if (!Object.hasOwn(output, 'success') || (output as { success: unknown }).success !== false)
    return undefined;
  const said = ['error', 'message']
    .map((k) => (Object.hasOwn(output, k) ? (output as Record<string, unknown>)[k] : undefined))
    .find((v): v is string => typeof v === 'string' && v !== '');
  const body = errorBody(
    'handler_error',
    said === undefined ? `action ${tool} reported failure` : shortMessage(said),
    { result: output },
  );
  return effects.length === 0 ? body : Object.assign({}, body, { effects });
}

type Settled =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'stopped' };

/** Runs the host handler until it settles or the signal aborts (the handler may ignore the signal). */
function runUntil(fn: () => unknown, signal: AbortSignal): Promise<Settled> {
  return new Promise((resolve) => {
    const onAbort = (): void => resolve({ kind: 'stopped' });
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (s: Settled): void => {
      signal.removeEventListener('abort', onAbort);
      resolve(s);
    };
    try {
      Promise.resolve(fn()).then(
        (value) => settle({ kind: 'value', value }),
        (error: unknown) => settle({ kind: 'threw', error }),
      );
    } catch (error) {
      settle({ kind: 'threw', error });
    }
  });
}

/** Creates the handler of `action` tools. */
export function createActionHandler(options: ActionHandlerOptions): Handler {
  const now = options.now ?? Date.now;
  const timeoutMs = (options.timeoutSecs ?? DEFAULT_ACTION_TIMEOUT_SECS) * 1000;

  const fallback = (context: HandlerContext): unknown =>
    context.tool.hasResult ? copyValue(context.tool.result) : { status: 'ok' };

  async function run(
    args: Readonly<Record<string, unknown>>,
    context: HandlerContext,
  ): Promise<OutcomeBody> {
    const name = context.tool.name;
    const fn = options.actions.get(name);
    if (fn === undefined) {
      return context.tool.hasResult
        ? { type: 'success', output: copyValue(context.tool.result) }
        : errorBody('not_available', `action ${name} is not available`);
    }
    if (context.signal.aborted) return errorBody('cancelled', 'the call was cancelled');
    const controller = new AbortController();
    let byCaller = false;
    const onAbort = (): void => {
      byCaller = true;
      controller.abort(context.signal.reason);
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => controller.abort(new ToolError('timeout', 'deadline')),
      timeoutMs,
    );
    try {
      const settled = await runUntil(
        () =>
          fn(args, {
            tool: name,
            callId: context.callId,
            session: context.session,
            signal: controller.signal,
          }),
        controller.signal,
      );
      switch (settled.kind) {
        case 'stopped':
          return byCaller
            ? errorBody('cancelled', 'the call was cancelled')
            : errorBody('timeout', `action ${name} did not finish within ${timeoutMs / 1000} s`);
        case 'threw':
          return errorBody(
            'handler_error',
            `action ${name} failed: ${shortMessage(settled.error)}`,
          );
        case 'value': {
          const value = settled.value;
          if (isActionResult(value)) {
            const output = value.result === undefined ? fallback(context) : value.result;
            return (
              reportedFailure(name, output, effectsOf(value)) ?? {
                type: 'success',
                output,
                effects: effectsOf(value),
              }
            );
          }
          const output = value === undefined ? fallback(context) : value;
          return reportedFailure(name, output, []) ?? { type: 'success', output };
        }
        default: {
          const _exhaustive: never = settled;
          return _exhaustive;
        }
      }
    } finally {
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
    }
  }

  return {
    kind: 'action',
    execute: (args, context): Promise<HandlerOutcome> =>
      neverThrow(now, async (startedAt) =>
        finishOutcome(await run(args, context), startedAt, now()),
      ),
  };
}
