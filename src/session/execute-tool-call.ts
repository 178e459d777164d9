/**
 * Third stage of a tool call: dispatch a prepared call to its handler, honour interruption, apply
 * `options.save`, and produce the trace and the message content the model receives. Never throws:
 * every outcome, including a cancelled or crashed handler, becomes a result for the model.
 *
 * Cancellation policy (docs/session.md, docs/voice.md): calls whose side-effect class is `none` (by
 * default endpoint `get`, context and log) are safe to cancel; when the turn's signal aborts they
 * resolve at once with a `cancelled` tool error. `idempotent` and `unsafe` calls already started
 * (by default endpoint `post`/`put`/`delete` and actions) get a signal that interruption never
 * aborts, so they run to completion and their result is kept (never repeated).
 */
import type { ToolDefinition, ToolType } from '../definition/types.js';
import { ToolError } from '../errors.js';
import type {
  Handler,
  HandlerOutcome,
  HandlerSession,
  HttpExchangeRecord,
  SessionEffect,
} from '../handlers/types.js';
import type { ModelToolCall } from '../models/types.js';
import { commandRuns } from './command-runs.js';
import type { ToolCallTrace } from '../observability/turn-tracing.js';
import { effectivePolicy, runWithPolicy } from './call-policy.js';
import { applySaveRules } from './deps.js';
import { answeredRecord } from '../handlers/outcome.js';
import { NEVER_ABORTED, onSignalAbort } from '../handlers/endpoint/deadline.js';
import type { PreparedCall } from './prepare-tool-call.js';
import type { ToolTrace, TurnEvent } from './types.js';
import type { TurnJournal } from './coordination.js';
import { isCancellable } from '../definition/side-effects.js';
import { jsonTextOf } from '../handlers/json-text.js';
import { append } from '../small-arrays.js';

/** What dispatching needs from the session. */
export interface ExecuteContext {
  /** The session's handlers and agents (its host: called as its methods, no closures). */
  readonly host: {
    handlerFor(type: ToolType): Handler;
    /** Whether an agent of this name exists (handoff effects naming others become tool errors). */
    hasAgent(name: string): boolean;
  };
  readonly session: HandlerSession;
  /** The turn's interruption signal. */
  readonly signal: AbortSignal;
  readonly emit: (event: TurnEvent) => void;
  readonly now: () => number;
  /** Records side-effecting calls before dispatch and their results (sessions-redis.md). */
  readonly journal?: TurnJournal;
  /** Cap on every call's deadline in ms (runAgent's `domain_timeout_secs`). Absent: none. */
  readonly deadlineCapMs?: number;
}

/** The finished call: its trace, the effects to apply, and the tool message content. */
export interface ToolCallResult {
  readonly call: ModelToolCall;
  readonly trace: ToolTrace;
  readonly effects: readonly SessionEffect[];
  /** The `content` of the tool message the model receives. */
  readonly content: string;
  /** Calls this call made itself (a workflow's `call` actions), applied before it, in order. */
  readonly nested?: readonly ToolCallResult[];
}

/** True if interrupting may cancel a call of this tool: side-effect class `none` (docs/session.md). */
export { isCancellable };

/**
 * Whether calls of this tool are recorded in the session's tool-call journal before dispatch (and
 * so never dispatched twice across a crash): the calls that may have a side effect, today exactly
 * those interruption may not cancel.
 */
export function isJournaled(tool: ToolDefinition): boolean {
  return !isCancellable(tool);
}

// The signal of a call interruption may not cancel: never aborted, shared (creating an AbortSignal
// per call was a visible cost). See deadline.ts.

/**
 * Dispatches a prepared call (or records its preparation error). Never rejects. Not async: only a
 * journaled call awaits anything before dispatch, so any other call makes no async frame.
 */
export function executeToolCall(
  call: ModelToolCall,
  prepared: PreparedCall,
  startedAt: number,
  ctx: ExecuteContext,
  trace?: ToolCallTrace,
): Promise<ToolCallResult> {
  if (!prepared.ok)
    return Promise.resolve(
      finish(
        call,
        prepared.args,
        prepared.transform,
        [],
        errorOutcome(prepared.error),
        startedAt,
        ctx,
      ),
    );
  const { tool, args } = prepared;
  const cancellable = isCancellable(tool);
  if (cancellable && ctx.signal.aborted) {
    return Promise.resolve(
      finish(call, args, prepared.transform, [], errorOutcome(cancelledError()), startedAt, ctx),
    );
  }
  if (tool.type === 'action') ctx.emit({ type: 'action', callId: call.id, tool: tool.name, args });
  // Journaled calls are recorded before dispatch.
  const journal = isJournaled(tool) ? ctx.journal : undefined;
  return journal === undefined
    ? dispatch(call, prepared, startedAt, ctx, trace, cancellable)
    : journaledCall(journal, call, prepared, startedAt, ctx, trace);
}

/** A call ready to dispatch (prepared without error). */
type ReadyCall = Extract<PreparedCall, { ok: true }>;

/**
 * A journaled call: recorded before dispatch; if that fails the call is not made, so a call is
 * never dispatched that a process resuming this session could not know about.
 */
async function journaledCall(
  journal: TurnJournal,
  call: ModelToolCall,
  prepared: ReadyCall,
  startedAt: number,
  ctx: ExecuteContext,
  trace: ToolCallTrace | undefined,
): Promise<ToolCallResult> {
  const { tool, args, transform } = prepared;
  try {
    await journal.record({ callId: call.id, tool: tool.name, arguments: call.arguments });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const error = new ToolError('not_available', `the call was not made: ${reason}`);
    return finish(call, args, transform, [], errorOutcome(error), startedAt, ctx);
  }
  const result = await dispatch(call, prepared, startedAt, ctx, trace, false);
  // Not awaited: without a recorded result a resumed session answers `outcome_unknown`, which is
  // still right, and the record goes out on the store's connection ahead of the turn's save (which
  // clears the journal), so waiting for its reply would only put a round trip on every call.
  void journal.complete(call.id, result.content).catch(() => undefined);
  return result;
}

/** Runs the handler (under the tool's call policy) and makes the result of its outcome. */
function dispatch(
  call: ModelToolCall,
  prepared: ReadyCall,
  startedAt: number,
  ctx: ExecuteContext,
  trace: ToolCallTrace | undefined,
  cancellable: boolean,
): Promise<ToolCallResult> {
  const { tool, args, transform } = prepared;
  let requests: HttpExchangeRecord[] = [];
  const onRequest = (record: HttpExchangeRecord): void => {
    requests = append(requests, record);
    ctx.emit({ type: 'http-request', callId: call.id, request: record });
  };
  // The trace keeps each attempt once: the request as sent, with its status once answered.
  const onResponse = (record: HttpExchangeRecord, status: number): void => {
    const answered = answeredRecord(record, status);
    const at = requests.lastIndexOf(record);
    if (at >= 0) requests[at] = answered;
    ctx.emit({ type: 'http-response', callId: call.id, request: answered });
  };
  const handlerSignal = cancellable ? ctx.signal : NEVER_ABORTED;
  const handler = ctx.host.handlerFor(tool.type);
  // Attempts are traced only when the call has a recording span (else tracing them does nothing).
  const traceAttempt =
    trace?.recording === true
      ? (record: HttpExchangeRecord) => trace.attempt(record, tool.endpoint?.url)
      : undefined;
  // Only command tools run programs: their runs are recorded (events, the trace's `commands`).
  const runs =
    tool.type === 'command' ? commandRuns(call.id, tool.name, ctx.emit, trace) : undefined;
  // Written out, not spread: made for every call.
  const attempt = (signal: AbortSignal): Promise<HandlerOutcome> =>
    handler.execute(
      args,
      runs !== undefined
        ? runs.context(tool, ctx.session, signal)
        : traceAttempt === undefined
          ? { tool, callId: call.id, session: ctx.session, signal, onRequest, onResponse }
          : {
              tool,
              callId: call.id,
              session: ctx.session,
              signal,
              onRequest,
              onResponse,
              traceAttempt,
            },
    );
  const policy = effectivePolicy(tool.callPolicy, ctx.deadlineCapMs);
  let run: Promise<HandlerOutcome>;
  trace?.dispatched();
  try {
    run =
      policy === undefined
        ? attempt(handlerSignal)
        : runWithPolicy(attempt, { policy, tool: tool.name, signal: handlerSignal, now: ctx.now });
  } catch (err) {
    run = Promise.reject(err);
  }
  const done = (outcome: OutcomeLike): ToolCallResult => {
    const result = finish(
      call,
      args,
      transform,
      requests,
      checkHandoffs(withDefinitionHandoff(outcome, tool), ctx),
      startedAt,
      ctx,
      tool,
    );
    if (runs !== undefined) (result.trace as TraceDraft).commands = runs.records;
    return result;
  };
  if (cancellable) {
    return raceAbort(
      run.then(
        (o): Settled => ({ kind: 'done', outcome: o }),
        (err: unknown): Settled => ({ kind: 'done', outcome: crashedOutcome(err) }),
      ),
      ctx.signal,
    ).then((settled) =>
      done(settled.kind === 'cancelled' ? errorOutcome(cancelledError()) : settled.outcome),
    );
  }
  // Nothing to race: the outcome goes straight to the result (no wrapper promise or object).
  return run.then(done, (err: unknown) => done(crashedOutcome(err)));
}

type Settled = { kind: 'done'; outcome: OutcomeLike } | { kind: 'cancelled' };
type OutcomeLike = Pick<HandlerOutcome, 'type' | 'effects'> &
  ({ type: 'success'; output: unknown } | { type: 'error'; error: ToolError });

function raceAbort(work: Promise<Settled>, signal: AbortSignal): Promise<Settled> {
  if (signal.aborted) return Promise.resolve({ kind: 'cancelled' });
  return new Promise((resolve) => {
    // Shared per-signal listener: a turn's signal serves every parallel call of the answer.
    const off = onSignalAbort(signal, () => resolve({ kind: 'cancelled' }));
    void work.then((s) => {
      off();
      resolve(s);
    });
  });
}

/** `options.handoff` of the definition: a successful call hands the session to that agent. */
function withDefinitionHandoff(outcome: OutcomeLike, tool: ToolDefinition): OutcomeLike {
  const agent = tool.options.handoff;
  if (agent === undefined || outcome.type !== 'success') return outcome;
  return {
    ...outcome,
    effects: [...outcome.effects, { type: 'handoff', agent, reason: `${tool.name} succeeded` }],
  };
}

function checkHandoffs(outcome: OutcomeLike, ctx: ExecuteContext): OutcomeLike {
  for (const effect of outcome.effects) {
    if (effect.type === 'handoff' && !ctx.host.hasAgent(effect.agent)) {
      return errorOutcome(
        new ToolError(
          'not_available',
          `cannot hand over to unknown agent ${JSON.stringify(effect.agent)}`,
        ),
      );
    }
  }
  return outcome;
}

/** A handler that threw (handlers should not): a `handler_error` the model can see. */
function crashedOutcome(err: unknown): OutcomeLike {
  return errorOutcome(new ToolError('handler_error', shortMessage(err)));
}

function errorOutcome(error: ToolError): OutcomeLike {
  return { type: 'error', error, effects: [] };
}

function cancelledError(): ToolError {
  return new ToolError('cancelled', 'the call was cancelled because the caller interrupted');
}

/** A trace being built (one object per call, its properties in their usual order). */
type TraceDraft = { -readonly [K in keyof ToolTrace]: ToolTrace[K] };

function finish(
  call: ModelToolCall,
  args: Record<string, unknown> | undefined,
  transform: ToolTrace['transform'],
  requests: readonly HttpExchangeRecord[],
  outcome: OutcomeLike,
  startedAt: number,
  ctx: ExecuteContext,
  tool?: ToolDefinition,
): ToolCallResult {
  const duration_secs = Math.max(0, ctx.now() - startedAt) / 1000;
  const isError = outcome.type === 'error';
  const output = outcome.type === 'error' ? outcome.error.toJSON() : outcome.output;
  // Written out, not a base object spread into each shape: this is made for every call.
  const trace: TraceDraft =
    args === undefined
      ? {
          tool: call.name,
          duration_secs,
          callId: call.id,
          rawArguments: call.arguments,
          transform,
          requests,
          output,
          isError,
        }
      : {
          tool: call.name,
          args,
          duration_secs,
          callId: call.id,
          rawArguments: call.arguments,
          transform,
          requests,
          output,
          isError,
        };
  if (outcome.type === 'error') {
    trace.errorCode = outcome.error.code;
    return { call, trace, effects: outcome.effects, content: safeStringify(output) };
  }
  let effects: readonly SessionEffect[] = outcome.effects;
  if (tool !== undefined && tool.options.save.length > 0) {
    const vars = applySaveRules(outcome.output, tool.options.save);
    if (Object.keys(vars).length > 0) effects = [...effects, { type: 'set-vars', vars }];
  }
  if (tool?.options.propagateToolResult === true) trace.propagate = true;
  return {
    call,
    trace,
    // A copy either way: the handler's array is never the one a result hands on.
    effects: effects === outcome.effects ? [...effects] : effects,
    content: typeof output === 'string' ? output : safeStringify(output),
  };
}

function safeStringify(value: unknown): string {
  try {
    // An endpoint's JSON as received, when it is exactly what stringify would make (json-text.ts).
    return jsonTextOf(value) ?? 'null';
  } catch {
    return JSON.stringify({
      error: { code: 'bad_response', message: 'the tool result is not JSON-serialisable' },
    });
  }
}

function shortMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : typeof err === 'string' ? err : 'unknown error';
  const line = text.split('\n', 1)[0] ?? '';
  return `handler failed: ${line.length > 200 ? `${line.slice(0, 199)}…` : line}`;
}
