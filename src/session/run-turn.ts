/**
 * The turn loop (docs/session.md): user message → model → tool calls → model … until the model answers
 * without tool calls, `maxToolRounds` rounds of tool calls (or `maxCalls` model calls) have run (a
 * `max-rounds` event, and the turn ends cleanly), its `timeout` passed (turn-limits.ts), a tool ended the session, or the caller interrupted.
 *
 * Event order of a turn: `turn-start`; per round: `text-delta`s and, as calls arrive, `tool-call`
 * (then `action` / `http-request` / bridge `say` while they run); per call in call order its
 * `tool-result` or `tool-error` followed by its effect events (`say`, `language`, `vars`, `log`,
 * `handoff`); then `max-rounds` or `model-error` or `interrupted` if that is how the turn ended;
 * `turn-end` (not after a model error); `session-end` last if a tool ended the session.
 */
import type { ModelUsage } from '../models/types.js';
import type { TurnTimings } from '../observability/types.js';
import { isRetryableModelError } from './failures.js';
import { TurnTracing, type TurnTracingInit } from '../observability/turn-tracing.js';
import { runRound } from './run-round.js';
import type { RoundOutcome } from './streamed-round.js';
import type { TurnHost } from './turn-host.js';
import { applyToolResult } from './apply-effects.js';
import type { StateCapture } from './state-snapshots.js';
import type { ToolCallResult } from './execute-tool-call.js';
import type {
  PropagatedResult,
  SessionEvent,
  SessionState,
  ToolTrace,
  TurnEvent,
  TurnResult,
} from './types.js';
import { backgroundResultMessage } from './voice/background-calls.js';
import { append } from '../small-arrays.js';
import { turnDeadline, turnLimits, type TurnDeadline, type TurnLimits } from './turn-limits.js';
import type { TurnController } from './turn-signals.js';

/** Default cap on rounds of tool calls per turn. */
export const DEFAULT_MAX_TOOL_ROUNDS = 8;

/**
 * Runs one user turn, or (with `background`) a turn the engine starts because a background call's
 * result arrived: its result is applied and handed to the model as a system message, and the
 * model's answer is spoken unprompted (docs/voice.md). Rejects only with a ModelError (after a
 * `model-error` event).
 */
export function runTurn(
  host: TurnHost,
  userText: string,
  controller: TurnController,
  emit: (event: TurnEvent) => void,
  events: readonly SessionEvent[],
  background?: ToolCallResult,
): Promise<TurnResult> {
  const limits = turnLimits(host.options, host.state.agent);
  const deadline = turnDeadline(controller, limits.timeoutMs);
  const running = runTurnUntil(
    host,
    userText,
    controller,
    deadline,
    limits,
    emit,
    events,
    background,
  );
  // Without a timeout there is nothing to dispose: no async layer around the turn.
  return limits.timeoutMs === undefined ? running : running.finally(deadline.dispose);
}

async function runTurnUntil(
  host: TurnHost,
  userText: string,
  turn: TurnController,
  deadline: TurnDeadline,
  limits: TurnLimits,
  emit: (event: TurnEvent) => void,
  events: readonly SessionEvent[],
  background: ToolCallResult | undefined,
): Promise<TurnResult> {
  const startedAt = host.now();
  const state = host.state;
  host.snapshots.beforeTurn(state);
  state.turns++;
  host.speech.beginTurn();
  emit(
    background === undefined
      ? { type: 'turn-start', turn: state.turns, user: userText }
      : {
          type: 'turn-start',
          turn: state.turns,
          user: userText,
          reason: 'tool-result',
          callId: background.call.id,
        },
  );
  const tracing = new TurnTracing(tracingInit(host, state.turns));
  let traces: ToolTrace[] = [];
  if (background === undefined) state.history.push({ role: 'user', content: userText });
  else {
    applyToolResult(host, background, emit);
    traces = append(traces, background.trace);
    state.history.push({ role: 'system', content: backgroundResultMessage(background) });
  }

  // Each round is one model call, so `maxCalls` caps rounds the same way `maxToolRounds` does.
  const maxRounds = Math.max(
    1,
    Math.min(host.options.maxToolRounds ?? DEFAULT_MAX_TOOL_ROUNDS, limits.maxCalls ?? Infinity),
  );
  let inputTokens = 0;
  let outputTokens = 0;
  let content = '';
  let rounds = 0;
  let interrupted = false;
  // Set once the tool rounds ran out and `finalAnswerAfterMaxRounds` asks for one more answer.
  let finalRound = false;
  for (;;) {
    if (turn.stopped) {
      interrupted = true;
      break;
    }
    let round: RoundOutcome;
    try {
      const streamed = await runRound(host, turn, emit, tracing, finalRound);
      // The round's calls are awaited in this frame, which lives for the turn anyway.
      if (streamed.running !== undefined) await streamed.running;
      round = streamed.end();
    } catch (err) {
      // Not the model's failure (those come back in round.error): the turn span ends with the
      // error's own name and the error goes to the host as it is.
      const name = err instanceof Error ? err.name : 'Error';
      tracing.end({ interrupted: false, error: { code: name, message: String(err) } });
      throw err;
    }
    inputTokens += round.usage.inputTokens;
    outputTokens += round.usage.outputTokens;
    for (const r of round.activation) traces = append(traces, r.trace);
    for (const r of round.results) {
      for (const inner of r.nested ?? []) traces = append(traces, inner.trace);
      traces = append(traces, r.trace);
    }
    content = round.text;
    if (round.error !== undefined) {
      emit({
        type: 'model-error',
        code: round.error.code,
        message: round.error.message,
        ...(round.error.status === undefined ? {} : { status: round.error.status }),
        retryable: isRetryableModelError(round.error.code),
        usage: { inputTokens, outputTokens },
      });
      tracing.end({ interrupted: false, error: round.error });
      throw round.error;
    }
    if (round.interrupted) {
      interrupted = true;
      break;
    }
    if (finalRound || round.results.length === 0) break;
    rounds++;
    if (state.ended) break;
    if (rounds >= maxRounds) {
      const finalAnswer = host.options.finalAnswerAfterMaxRounds === true;
      emit(
        finalAnswer ? { type: 'max-rounds', rounds, finalAnswer } : { type: 'max-rounds', rounds },
      );
      if (!finalAnswer) break;
      finalRound = true;
    }
  }
  if (interrupted)
    emit(
      deadline.timedOut() ? { type: 'interrupted', reason: 'timeout' } : { type: 'interrupted' },
    );
  const storing = host.options.store !== undefined;
  const timings = tracing.end({ interrupted }, storing);
  emit({ type: 'turn-end', content, timings });
  if (state.ended)
    emit({
      type: 'session-end',
      ...(host.endReason === undefined ? {} : { reason: host.endReason }),
    });

  const usage: ModelUsage = { inputTokens, outputTokens };
  // A loop, not flatMap: no array per trace.
  const propagated: PropagatedResult[] = [];
  for (const t of traces)
    if (t.propagate === true) propagated.push({ tool: t.tool, callId: t.callId, output: t.output });
  // The state is built only when read (or stored): copying history every turn made a turn's
  // cost grow with the conversation.
  const snapshot = host.snapshots.capture(state);
  if (storing) {
    try {
      await host.persist(snapshot.read());
    } catch (err) {
      tracing.stored(err);
      throw err;
    }
    tracing.stored();
  }
  return new TurnOutcome(
    content,
    Math.max(0, host.now() - startedAt) / 1000,
    traces,
    propagated,
    events,
    usage,
    snapshot,
    interrupted,
    timings,
  );
}

/**
 * A turn's result. `state` is an own, enumerable getter (JSON, keys and spreads show it, in its
 * place) defined with one shared getter function: a getter in an object literal made every result
 * a dictionary-mode object (a new accessor pair each time), slow to create and to read.
 */
class TurnOutcome {
  declare readonly content: string;
  declare readonly response_time_secs: number;
  declare readonly traces: readonly ToolTrace[];
  declare readonly propagated: readonly PropagatedResult[];
  declare readonly events: readonly SessionEvent[];
  declare readonly usage: ModelUsage;
  declare readonly state: SessionState;
  declare readonly interrupted: boolean;
  declare readonly timings: TurnTimings;
  readonly #snapshot: StateCapture;

  constructor(
    content: string,
    responseTimeSecs: number,
    traces: readonly ToolTrace[],
    propagated: readonly PropagatedResult[],
    events: readonly SessionEvent[],
    usage: ModelUsage,
    snapshot: StateCapture,
    interrupted: boolean,
    timings: TurnTimings,
  ) {
    this.#snapshot = snapshot;
    const self = this as unknown as Record<string, unknown>;
    self['content'] = content;
    self['response_time_secs'] = responseTimeSecs;
    self['traces'] = traces;
    self['propagated'] = propagated;
    self['events'] = events;
    self['usage'] = usage;
    Object.defineProperty(this, 'state', STATE_PROPERTY);
    self['interrupted'] = interrupted;
    self['timings'] = timings;
  }

  static readState(this: void, result: TurnOutcome): SessionState {
    return result.#snapshot.read();
  }
}

const STATE_PROPERTY: PropertyDescriptor = {
  get(this: TurnOutcome): SessionState {
    return TurnOutcome.readState(this);
  },
  enumerable: true,
  configurable: true,
};

/** What a turn's instruments need (written out, not spread: made every turn). */
function tracingInit(host: TurnHost, turn: number, startedAt?: number): TurnTracingInit {
  const { state } = host;
  const init: { -readonly [K in keyof TurnTracingInit]: TurnTracingInit[K] } = {
    sessionId: state.id,
    turn,
    language: state.language,
    model: host.activeModel().name,
    now: host.now,
  };
  if (startedAt !== undefined) init.startedAt = startedAt;
  if (state.agent !== undefined) init.agent = state.agent;
  if (host.options.tracing !== undefined) {
    init.options = host.options.tracing;
    init.secrets = host.secrets();
  }
  return init;
}

/**
 * A turn the store refused before it began (its lease could not be taken: Redis down or silent,
 * another process busy past leaseWaitMs, a stale copy, a refused journal): a turn span from
 * `startedAt`, ERROR with the error's code, so a store incident shows in traces too.
 */
export function traceRefusedTurn(host: TurnHost, startedAt: number, error: unknown): void {
  const code =
    typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
      ? error.code
      : 'store_failed';
  new TurnTracing(tracingInit(host, host.state.turns + 1, startedAt)).end({
    interrupted: false,
    error: { code, message: error instanceof Error ? error.message : String(error) },
  });
}
