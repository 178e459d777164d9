/**
 * Tool calls made by something other than a session's own model — an MCP client, an agent
 * framework's model — run as turns of a real switchboard session whose "model" makes exactly that
 * call. So each takes the path of every model call: argument limits, validation, static
 * parameters, transforms, service auth, network policy, deadlines and retries, Idempotency-Key,
 * the journal, tracing, effects; and context tools change this session's language and variables
 * for the next call. Calls of one runner run one at a time, in arrival order, as a session's
 * turns do.
 */
import { randomUUID } from 'node:crypto';
import type { ToolErrorCode } from '../errors.js';
import type {
  ChatTool,
  Model,
  ModelRequest,
  ModelStreamPart,
  ModelToolCall,
} from '../models/types.js';
import { createSession, restoreSession, turnHostOf } from '../session/create-session.js';
import { LazySystemValues } from '../session/session-state.js';
import type { Session, SessionEvent, SessionOptions, TurnResult } from '../session/types.js';
import type { ServedTools } from './served-tools.js';

/**
 * History kept per runner, in messages (three per call): the caller keeps its own conversation
 * and no tool reads this one, so past it the session restarts from its state (language,
 * variables, agent, workflows) with an empty history, bounding a long-lived runner's memory.
 */
export const MAX_CALL_HISTORY = 96;

/** Where the session's tools come from: read on every call, so a new set applies to the next. */
export interface ToolSource {
  readonly served: ServedTools;
}

/** What one call came to. */
export interface CallOutcome {
  /** The call's id in the session (its traces, events and journal entries). */
  readonly callId: string;
  /** The tool message a switchboard model would receive (an endpoint's JSON exactly as it came). */
  readonly output: string;
  readonly isError: boolean;
  /** The stable code of a tool error. */
  readonly code?: ToolErrorCode;
  /** What the tool said (a context tool's message, an action's `say`), in order. */
  readonly said: readonly string[];
}

/** Per-call options of {@link ToolCallRunner.call}. */
export interface CallOptions {
  /**
   * Interrupts the call's turn: a call of side-effect class `none` stops at once; others run to
   * completion, as on a caller's barge-in.
   */
  readonly signal?: AbortSignal;
  /** Every event of the call's turn, as it happens (a bridge phrase while the call runs). */
  readonly onEvent?: (event: SessionEvent) => void;
  /** Called when the call changed the tools shown (a handoff, a workflow step). */
  readonly listChanged?: () => void;
}

/**
 * The session's model: it answers a turn whose user message is a call's marker with that call,
 * and every other request (the round after the result, a background result's turn) with nothing.
 */
class CallingModel implements Model {
  readonly #calls = new Map<string, ModelToolCall>();

  constructor(readonly name: string) {}

  expect(marker: string, call: ModelToolCall): void {
    this.#calls.set(marker, call);
  }

  forget(marker: string): void {
    this.#calls.delete(marker);
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    const last = request.messages[request.messages.length - 1];
    const marker = last?.role === 'user' ? last.content : undefined;
    const call = marker === undefined ? undefined : this.#calls.get(marker);
    if (call !== undefined) {
      this.#calls.delete(marker!);
      yield { type: 'tool-call', call };
    }
    yield { type: 'finish' };
  }
}

/** Options of {@link ToolCallRunner}. */
export interface ToolCallRunnerOptions {
  readonly source: ToolSource;
  /** The name of the calling model in traces and spans (`mcp`, `ai`, …). */
  readonly caller: string;
  /** What a call answers (code `not_available`) once a tool ended the session. */
  readonly endedMessage?: string;
}

/** One caller's switchboard session: its calls in order, the tools its model is shown. */
export class ToolCallRunner {
  readonly #source: ToolSource;
  readonly #model: CallingModel;
  #served: ServedTools;
  #session: Session;
  #queue: Promise<unknown> = Promise.resolve();
  /** The listing last seen (the array, then its JSON), to tell when it changed. */
  #listed: readonly ChatTool[] | undefined;
  #listedJson: string | undefined;
  /** The running call's event listener (calls are serial: at most one). */
  #onEvent: ((event: SessionEvent) => void) | undefined;
  #closed = false;
  readonly #endedMessage: string;

  constructor(options: ToolCallRunnerOptions) {
    this.#source = options.source;
    this.#endedMessage = options.endedMessage ?? 'this session has ended (a tool ended it)';
    this.#model = new CallingModel(options.caller);
    this.#served = this.#source.served;
    this.#session = createSession(this.#sessionOptions(this.#served));
  }

  /** The switchboard session now (it is replaced when the history is trimmed or tools change). */
  get session(): Session {
    return this.#session;
  }

  /** What the session's model would be shown now (a new tool set applies between calls). */
  async listTools(): Promise<readonly ChatTool[]> {
    if (this.#served !== this.#source.served) await this.#serial(() => this.#refresh());
    return this.#chatTools(true);
  }

  /** The tools shown now, without waiting for a running call (a framework's tools at start). */
  toolsNow(): readonly ChatTool[] {
    return this.#chatTools(true);
  }

  /** Runs one call; never rejects: every failure is an outcome with `isError` and a code. */
  call(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    options: CallOptions = {},
  ): Promise<CallOutcome> {
    return this.#serial(() => this.#run(name, args, options));
  }

  /** Ends the session: its calls in flight end as a session's do. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#session.close();
  }

  #sessionOptions(served: ServedTools): SessionOptions {
    const hostOnEvent = served.options.onEvent;
    return {
      ...served.options,
      tools: served.tools,
      model: this.#model,
      onEvent: (event) => {
        hostOnEvent?.(event);
        this.#onEvent?.(event);
      },
    };
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #run(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    options: CallOptions,
  ): Promise<CallOutcome> {
    const signal = options.signal;
    if (signal?.aborted === true)
      return errorOutcome('cancelled', 'the call was cancelled before it started');
    try {
      await this.#refresh();
    } catch (err) {
      // Restarting the session failed on the host's side (a store): not the caller's tool.
      return errorOutcome('not_available', err instanceof Error ? err.message : String(err));
    }
    if (this.#closed || this.#session.ended)
      return errorOutcome('not_available', this.#endedMessage);
    // The pipeline starts from the raw text a model would send; its limits apply to that text.
    let raw: string;
    try {
      raw = JSON.stringify(args ?? {});
    } catch {
      // Nested past what JSON.stringify can walk (far past the depth limit).
      return errorOutcome('invalid_arguments', 'the arguments are nested too deeply');
    }
    const call: ModelToolCall = { id: randomUUID(), name, arguments: raw };
    const marker = `tool call ${call.id}`;
    this.#model.expect(marker, call);
    const interrupt = (): void => void this.#session.interrupt();
    signal?.addEventListener('abort', interrupt, { once: true });
    this.#onEvent = options.onEvent;
    let result: TurnResult;
    try {
      result = await this.#session.send(marker).result;
    } catch (err) {
      // The turn failed on the host's side (a store, a closed session): not the caller's tool.
      return errorOutcome('not_available', err instanceof Error ? err.message : String(err));
    } finally {
      this.#onEvent = undefined;
      signal?.removeEventListener('abort', interrupt);
      this.#model.forget(marker);
    }
    if (this.#listed !== undefined && this.#listingChanged()) options.listChanged?.();
    return this.#outcomeOf(call.id, result);
  }

  #outcomeOf(callId: string, result: TurnResult): CallOutcome {
    const trace = result.traces.find((t) => t.callId === callId);
    if (trace === undefined)
      return errorOutcome('cancelled', 'the call was cancelled before it started');
    const said: string[] = [];
    for (const event of result.events)
      if (event.type === 'say' && event.source === 'tool') said.push(event.text);
    const output = this.#toolMessage(callId, trace.output);
    if (!trace.isError) return { callId, output, isError: false, said };
    return {
      callId,
      output,
      isError: true,
      said,
      ...(trace.errorCode === undefined ? {} : { code: trace.errorCode }),
    };
  }

  /** The tool message the model would receive (an endpoint's JSON exactly as it came). */
  #toolMessage(callId: string, output: unknown): string {
    const history = turnHostOf(this.#session)?.state.history ?? [];
    for (let i = history.length - 1; i >= 0; i--) {
      const m = history[i]!;
      if (m.role === 'tool' && m.tool_call_id === callId) return m.content;
    }
    return typeof output === 'string' ? output : JSON.stringify(output);
  }

  /** Starts over from the session's state when the tool set changed or the history is long. */
  async #refresh(): Promise<void> {
    const served = this.#source.served;
    const history = turnHostOf(this.#session)?.state.history.length ?? 0;
    if (served === this.#served && history < MAX_CALL_HISTORY) return;
    const old = this.#session;
    await old.idle();
    const state = old.toJSON();
    await old.close();
    this.#served = served;
    this.#session = restoreSession({ ...state, history: [] }, this.#sessionOptions(served));
  }

  #chatTools(remember: boolean): readonly ChatTool[] {
    const host = turnHostOf(this.#session);
    if (host === undefined) return [];
    const tools = host.chatTools(host.activeTools(), new LazySystemValues(host));
    if (remember) {
      this.#listed = tools;
      this.#listedJson = undefined;
    }
    return tools;
  }

  /** True (and remembered) when the tools shown now differ from the last listing. */
  #listingChanged(): boolean {
    const before = this.#listed;
    const now = this.#chatTools(false);
    // The session caches the listing of a tool set without templates or workflows: same array.
    if (now === before) return false;
    this.#listedJson ??= JSON.stringify(before);
    const json = JSON.stringify(now);
    if (json === this.#listedJson) return false;
    this.#listed = now;
    this.#listedJson = json;
    return true;
  }
}

/** A failure before or around the pipeline, as the JSON a model would see, with its code. */
export function errorOutcome(code: ToolErrorCode, message: string): CallOutcome {
  return {
    callId: '',
    output: JSON.stringify({ error: { code, message } }),
    isError: true,
    code,
    said: [],
  };
}
