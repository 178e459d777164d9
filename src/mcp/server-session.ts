/**
 * One MCP session's switchboard session (docs/mcp.md). A `tools/call` runs as a turn of a real
 * session whose "model" makes exactly that call, so it takes the path of every model call —
 * argument limits, validation, static parameters, transforms, service auth, network policy,
 * deadlines and retries, Idempotency-Key, the journal, tracing, effects — and context tools change
 * this session's language and variables for the next call. Calls of one MCP session run one at a
 * time, in arrival order, as a session's turns do.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSet } from '../definition/types.js';
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
import type { AgentConfig, Session, SessionOptions, TurnResult } from '../session/types.js';
import { toMcpTools } from './server-tools.js';

/**
 * History kept per MCP session, in messages (three per call): MCP clients keep their own
 * conversation and no tool reads this one, so past it the session restarts from its state
 * (language, variables, agent, workflows) with an empty history, bounding a long-lived server's
 * memory.
 */
export const MAX_MCP_HISTORY = 96;

/**
 * The session options an MCP server passes on. Its own model drives every session, so what
 * steers a model's turn is not taken: no model, round or call caps, model id, final answer, and
 * no speech acknowledgement (nobody plays speech back: `auto`).
 */
export type McpSessionOptions = Omit<SessionOptions, ModelDriving | 'tools' | 'id' | 'onTurn'>;

type ModelDriving =
  'model' | 'maxToolRounds' | 'maxCalls' | 'modelId' | 'finalAnswerAfterMaxRounds' | 'speechAck';

/**
 * `options` without what {@link McpSessionOptions} leaves out (a JavaScript host may pass it
 * anyway), and agents without their own `model` and `maxCalls`, which would take the call away
 * from the server's model or refuse it.
 */
export function mcpSessionOptions(options: McpSessionOptions): McpSessionOptions {
  const {
    model: _m,
    maxToolRounds: _r,
    maxCalls: _c,
    modelId: _i,
    finalAnswerAfterMaxRounds: _f,
    speechAck: _s,
    onTurn: _t,
    id: _id,
    ...rest
  } = options as SessionOptions;
  if (rest.agents === undefined) return rest;
  // fromEntries defines own properties: an agent named `__proto__` stays an agent.
  const agents = Object.fromEntries(
    Object.entries(rest.agents).map(([name, agent]): [string, AgentConfig] => {
      const { model: _am, maxCalls: _ac, ...kept } = agent;
      return [name, kept];
    }),
  );
  return { ...rest, agents };
}

/** A tool set with the session options that go with it (the action handlers of its tools). */
export interface ServedTools {
  /** The served tool set (action tools without a handler already left out). */
  readonly tools: ToolSet;
  readonly options: McpSessionOptions;
}

/** Where the session's tools come from: read on every call, so a new set applies to the next. */
export interface ToolSource {
  readonly served: ServedTools;
}

/**
 * The session's model: it answers a turn whose user message is a call's marker with that call,
 * and every other request (the round after the result, a background result's turn) with nothing.
 */
class CallingModel implements Model {
  readonly name = 'mcp';
  readonly #calls = new Map<string, ModelToolCall>();

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

/** One MCP session: its switchboard session, its calls in order, its tool listing. */
export class McpToolSession {
  readonly #source: ToolSource;
  readonly #model = new CallingModel();
  #served: ServedTools;
  #session: Session;
  #queue: Promise<unknown> = Promise.resolve();
  /** The listing the client saw last (the array, then its JSON), to tell when it changed. */
  #listed: readonly ChatTool[] | undefined;
  #listedJson: string | undefined;
  #closed = false;

  constructor(source: ToolSource) {
    this.#source = source;
    const served = (this.#served = source.served);
    this.#session = createSession({ ...served.options, tools: served.tools, model: this.#model });
  }

  /** The switchboard session now (it is replaced when the history is trimmed or tools change). */
  get session(): Session {
    return this.#session;
  }

  /** `tools/list`: what the session's model would be shown now. */
  async listTools(): Promise<Tool[]> {
    // A new tool set applies between calls, never under one.
    if (this.#served !== this.#source.served) await this.#serial(() => this.#refresh());
    return toMcpTools(this.#chatTools(true), this.#served.tools.tools);
  }

  /**
   * `tools/call`: never rejects; every failure is a result with `isError`. `signal` (the client's
   * `notifications/cancelled`) interrupts the call's turn: a call of side-effect class `none` stops
   * at once; others run to completion, as on a caller's barge-in. `listChanged` is called when the
   * call changed what the model is shown (a handoff, a workflow step).
   */
  call(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    signal: AbortSignal,
    listChanged: () => void,
  ): Promise<CallToolResult> {
    return this.#serial(() => this.#run(name, args, signal, listChanged));
  }

  /** Ends the session (the MCP session closed): its calls in flight end as a session's do. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#session.close();
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #run(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    signal: AbortSignal,
    listChanged: () => void,
  ): Promise<CallToolResult> {
    if (signal.aborted) return errorResult('cancelled', 'the call was cancelled before it started');
    try {
      await this.#refresh();
    } catch (err) {
      // Restarting the session failed on the host's side (a store): not the caller's tool.
      return errorResult('not_available', err instanceof Error ? err.message : String(err));
    }
    if (this.#closed || this.#session.ended)
      return errorResult(
        'not_available',
        'this MCP session has ended (a tool ended it); open a new MCP session',
      );
    // The pipeline starts from the raw text a model would send; its limits apply to that text.
    let raw: string;
    try {
      raw = JSON.stringify(args ?? {});
    } catch {
      // Nested past what JSON.stringify can walk (far past the depth limit).
      return errorResult('invalid_arguments', 'the arguments are nested too deeply');
    }
    const call: ModelToolCall = { id: randomUUID(), name, arguments: raw };
    const marker = `mcp tools/call ${call.id}`;
    this.#model.expect(marker, call);
    const interrupt = (): void => void this.#session.interrupt();
    signal.addEventListener('abort', interrupt, { once: true });
    let result: TurnResult;
    try {
      result = await this.#session.send(marker).result;
    } catch (err) {
      // The turn failed on the host's side (a store, a closed session): not the caller's tool.
      return errorResult('not_available', err instanceof Error ? err.message : String(err));
    } finally {
      signal.removeEventListener('abort', interrupt);
      this.#model.forget(marker);
    }
    if (this.#listed !== undefined && this.#listingChanged()) listChanged();
    return this.#resultOf(call.id, result);
  }

  #resultOf(callId: string, result: TurnResult): CallToolResult {
    const trace = result.traces.find((t) => t.callId === callId);
    if (trace === undefined)
      return errorResult('cancelled', 'the call was cancelled before it started');
    const content: CallToolResult['content'] = [
      { type: 'text', text: this.#toolMessage(callId, trace.output) },
    ];
    // What the tool says (a context tool's message, an action's `say`) comes back as text too.
    for (const event of result.events)
      if (event.type === 'say' && event.source === 'tool')
        content.push({ type: 'text', text: event.text });
    return trace.isError ? { content, isError: true } : { content };
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
    if (served === this.#served && history < MAX_MCP_HISTORY) return;
    const old = this.#session;
    await old.idle();
    const state = old.toJSON();
    await old.close();
    this.#served = served;
    this.#session = restoreSession(
      { ...state, history: [] },
      { ...served.options, tools: served.tools, model: this.#model },
    );
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

/** A tool error as an MCP result: the JSON the model would see, with its stable code. */
export function errorResult(code: ToolErrorCode, message: string): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify({ error: { code, message } }) }],
    isError: true,
  };
}
