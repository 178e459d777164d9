/**
 * The action handler (docs/handlers.md): runs the host's handler registered under the tool's name, under a
 * deadline, and returns to the model, in order of preference, the handler's value, the
 * definition's `result`, or `{"status":"ok"}`. An `actionResult(...)` adds session effects.
 */
import { isToolError, ToolError } from '../errors.js';
import { argumentError } from '../option-checks.js';
import { isActionResult, type BrandedActionResult } from './action-result.js';
import { CallDeadline, type AbortWatcher } from './endpoint/deadline.js';
import {
  copyValue,
  errorBody,
  finishOutcome,
  internalErrorBody,
  shortMessage,
  type OutcomeBody,
} from './outcome.js';
import type {
  ActionContext,
  ActionHandler,
  Handler,
  HandlerContext,
  HandlerOutcome,
  HandlerSession,
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

const STOPPED: Settled = Object.freeze({ kind: 'stopped' });

/**
 * One host handler call under its deadline. The deadline is the endpoint calls'
 * ({@link CallDeadline}: one shared timer per duration, one listener per turn signal), and the
 * host's signal is made on first read: most action functions (hang up, transfer) never read it,
 * and an AbortController, a timer and two EventTarget listeners per call were a fifth of an action
 * turn's allocations (docs/benchmarks.md).
 */
class ActionCall implements AbortWatcher {
  readonly #outer: AbortSignal;
  readonly #deadline: CallDeadline;
  #controller: AbortController | undefined = undefined;
  /** Why the call was stopped, once it was: the caller's reason, or the deadline. */
  #stopReason: unknown = undefined;
  #resolve: ((settled: Settled) => void) | undefined = undefined;

  constructor(outer: AbortSignal, timeoutMs: number, now: number) {
    this.#outer = outer;
    this.#deadline = new CallDeadline(timeoutMs, outer, now, undefined);
  }

  /** Aborts when the caller cancels the call or its deadline passes; never otherwise. */
  signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#deadline.aborted) this.#controller.abort(this.#stopReason);
    }
    return this.#controller.signal;
  }

  /** True when the caller's signal (not the deadline) stopped the call. */
  cancelled(): boolean {
    return this.#deadline.cancelled();
  }

  /** Runs the host function until it settles or the call is stopped (it may ignore the signal). */
  run(fn: () => unknown): Promise<Settled> {
    return new Promise((resolve) => {
      this.#resolve = resolve;
      this.#deadline.watchAbort(this);
      if (this.#deadline.aborted) return;
      try {
        Promise.resolve(fn()).then(
          (value) => this.#settle({ kind: 'value', value }),
          (error: unknown) => this.#settle({ kind: 'threw', error }),
        );
      } catch (error) {
        this.#settle({ kind: 'threw', error });
      }
    });
  }

  abortedNow(): void {
    this.#stopReason = this.#deadline.cancelled()
      ? this.#outer.reason
      : new ToolError('timeout', 'deadline');
    this.#controller?.abort(this.#stopReason);
    this.#settle(STOPPED);
  }

  /** The call is over: its deadline leaves the timer queue and the signal's watch list. */
  dispose(): void {
    this.#deadline.dispose();
  }

  #settle(settled: Settled): void {
    const resolve = this.#resolve;
    this.#resolve = undefined;
    resolve?.(settled);
  }
}

/**
 * What the host function gets. A class, so it is a fast object with the fields of
 * {@link ActionContext}; `signal` is a getter (on the prototype) that makes the call's signal when
 * first read.
 */
class HostContext implements ActionContext {
  readonly tool: string;
  readonly callId: string;
  readonly session: HandlerSession;
  readonly #call: ActionCall;

  constructor(context: HandlerContext, call: ActionCall) {
    this.tool = context.tool.name;
    this.callId = context.callId;
    this.session = context.session;
    this.#call = call;
  }

  get signal(): AbortSignal {
    return this.#call.signal();
  }
}

/** Creates the handler of `action` tools. */
export function createActionHandler(options: ActionHandlerOptions): Handler {
  const actions = (options as { actions?: unknown } | null | undefined)?.actions;
  if (!(actions instanceof Map))
    throw argumentError(
      'createActionHandler(options.actions)',
      'a Map of action handlers by tool name',
      actions,
    );
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
    const call = new ActionCall(context.signal, timeoutMs, now());
    try {
      const settled = await call.run(() => fn(args, new HostContext(context, call)));
      switch (settled.kind) {
        case 'stopped':
          return call.cancelled()
            ? errorBody('cancelled', 'the call was cancelled')
            : errorBody('timeout', `action ${name} did not finish within ${timeoutMs / 1000} s`);
        case 'threw':
          // A ToolError keeps its code: a host (the MCP client) says what kind of failure it was.
          return isToolError(settled.error)
            ? { type: 'error', error: settled.error }
            : errorBody('handler_error', `action ${name} failed: ${shortMessage(settled.error)}`);
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
      call.dispose();
    }
  }

  return {
    kind: 'action',
    // One promise layer over `run` (its body never throws; an unexpected throw is a
    // `handler_error` outcome, as neverThrow makes it for the other handlers).
    execute: (args, context): Promise<HandlerOutcome> => {
      const startedAt = now();
      return run(args, context).then(
        (body) => finishOutcome(body, startedAt, now()),
        (err: unknown) => finishOutcome(internalErrorBody(err), startedAt, now()),
      );
    },
  };
}
