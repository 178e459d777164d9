/**
 * What one turn of a session did, in the shape fixture expectations talk about: tool calls with
 * their final arguments, HTTP requests on the wire, spoken lines, language, variables, reply.
 */
import type { TurnTimings } from '../observability/types.js';
import type { SessionEvent, ToolTrace, TurnResult } from '../session/types.js';
import type { RecordedCommand } from './command-double.js';
import type { RecordedRequest } from './recorded-request.js';

/** One tool call as the trace recorded it. */
export interface ObservedToolCall {
  readonly name: string;
  /** Final arguments (after static parameters and defaults); absent if they never parsed. */
  readonly args?: Record<string, unknown>;
  readonly rawArguments: string;
  readonly output: unknown;
  readonly isError: boolean;
}

/** One tool error as the model saw it. */
export interface ObservedToolError {
  readonly tool: string;
  readonly code: string;
  readonly message: string;
}

/** Everything one turn did. */
export interface ObservedTurn {
  readonly user: string;
  readonly toolCalls: readonly ObservedToolCall[];
  readonly requests: readonly RecordedRequest[];
  /** The command runs the command double saw during this turn (absent: none). */
  readonly commands?: readonly RecordedCommand[];
  readonly say: readonly string[];
  readonly language: string;
  readonly vars: Readonly<Record<string, unknown>>;
  /** Workflow states by task key after the turn. */
  readonly workflows: Readonly<Record<string, unknown>>;
  readonly reply: string;
  readonly toolErrors: readonly ObservedToolError[];
  readonly events: readonly SessionEvent[];
  readonly agent?: string;
  readonly ended: boolean;
  readonly interrupted: boolean;
  /** The model's failure, when the turn ended on one. */
  readonly modelError?: string;
  /** The turn's latency report. */
  readonly timings: TurnTimings;
}

/** Options of {@link observeTurn}. */
export interface ObserveTurnOptions {
  readonly user: string;
  readonly result: TurnResult;
  readonly modelError?: string;
  /** The requests the harness saw during this turn. */
  readonly requests: readonly RecordedRequest[];
  /** The command runs the harness saw during this turn. Default none. */
  readonly commands?: readonly RecordedCommand[];
}

/** Builds the observed view of one turn from its result. */
export function observeTurn(options: ObserveTurnOptions): ObservedTurn {
  const { result } = options;
  const say: string[] = [];
  const toolErrors: ObservedToolError[] = [];
  for (const event of result.events) {
    if (event.type === 'say') say.push(event.text);
    if (event.type === 'tool-error')
      toolErrors.push({ tool: event.tool, code: event.code, message: event.message });
  }
  return {
    user: options.user,
    toolCalls: result.traces.map((t) => ({
      name: t.tool,
      ...(t.args !== undefined ? { args: t.args } : {}),
      rawArguments: t.rawArguments,
      output: t.output,
      isError: t.isError,
    })),
    requests: options.requests,
    commands: options.commands ?? [],
    say,
    language: result.state.language,
    vars: result.state.vars,
    workflows: result.state.workflows ?? {},
    reply: result.content,
    toolErrors,
    events: result.events,
    ...(result.state.agent !== undefined ? { agent: result.state.agent } : {}),
    ended: result.state.ended,
    interrupted: result.interrupted,
    timings: result.timings,
    ...(options.modelError !== undefined ? { modelError: options.modelError } : {}),
  };
}

/**
 * The tool calls a rejected turn made, from its events: without them a failing turn's
 * `tool_calls` would read "got 0" although the model did call (a misspelt tool, say).
 */
export function tracesOfEvents(events: readonly SessionEvent[]): ToolTrace[] {
  const traces: ToolTrace[] = [];
  const ends = new Map<string, SessionEvent & { type: 'tool-result' | 'tool-error' }>();
  for (const e of events)
    if (e.type === 'tool-result' || e.type === 'tool-error') ends.set(e.callId, e);
  for (const e of events) {
    if (e.type !== 'tool-call') continue;
    const end = ends.get(e.callId);
    traces.push({
      tool: e.tool,
      ...(e.args !== undefined ? { args: e.args } : {}),
      callId: e.callId,
      rawArguments: e.rawArguments,
      output:
        end?.type === 'tool-error'
          ? { error: { code: end.code, message: end.message } }
          : end?.output,
      isError: end?.type === 'tool-error',
      ...(end?.type === 'tool-error' ? { errorCode: end.code } : {}),
      duration_secs: end?.durationSecs ?? 0,
      transform: [],
      requests: [],
    });
  }
  return traces;
}
