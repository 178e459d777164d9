/**
 * The Realtime connection seen as a {@link Model}: each model call of the turn loop is one Realtime
 * `response`. Before asking for it, the link brings the server up to date with what the session
 * did since the last call (new typed user messages, `function_call_output`s for exactly the calls
 * it answered, the agent's tools and instructions), then sends one `response.create` — or, on a
 * turn the caller's speech started, reads the response the server already began.
 *
 * The server runs one response at a time, so every `response.create` (a turn's, a verbatim `say`)
 * goes through one queue; a response is matched to its request by the metadata echoed back.
 *
 * A repeated response id or a replayed call id is reported and ignored, never believed (a second
 * buffer left the first one's turn waiting forever; a replay ran an action twice).
 * About 405 lines, one class: the queue, the open responses and what the server has are changed
 * together by every server event; slice reading and refusal batching are modules of their own.
 */
import type { ToolType } from '../definition/types.js';
import { ModelError } from '../models/errors.js';
import type {
  ChatMessage,
  ChatTool,
  Model,
  ModelRequest,
  ModelStreamPart,
} from '../models/types.js';
import { MAX_OPEN_RESPONSES, OpenResponses } from './open-responses.js';
import { Refusals } from './refusals.js';
import { ResponseBuffer, type ResponseOwner } from './response-buffer.js';
import { readServerEvent, type ServerEvent, type ServerFunctionCall } from './server-events.js';
import type { RealtimeClientEvent, RealtimeServerError } from './types.js';

/** What the link needs from the attachment. */
export interface RealtimeLinkHost {
  send(event: RealtimeClientEvent): void;
  /** The tool's type, to hold back `action` calls until the response is done. */
  toolType(name: string): ToolType | undefined;
  /** The session's history (read-only). */
  history(): readonly ChatMessage[];
  /**
   * The server started a response on its own (the caller spoke). Unless `taken`, the link cancels
   * and forgets it: `ended` (the session is over), or `busy` with the reason reported.
   */
  serverResponse(buffer: ResponseBuffer): 'taken' | 'ended' | { readonly busy: string };
  speechStarted(): void;
  userItem(itemId: string): void;
  transcript(itemId: string, text: string): void;
  serverError(error: RealtimeServerError): void;
  /** The API keys the connection was opened with (a server may echo one). */
  readonly credentials?: readonly string[];
}

/** The first line of a verbatim `say` response's instructions; the text follows on the next line. */
export const SAY_INSTRUCTIONS =
  'Say the following text to the caller verbatim, word for word, and nothing else:';

interface CreateRequest {
  readonly requestId: string;
  readonly owner: ResponseOwner;
  readonly response: Record<string, unknown>;
  resolve(buffer: ResponseBuffer): void;
  reject(error: ModelError): void;
}

export class RealtimeLink implements Model {
  readonly name = 'realtime';
  readonly #host: RealtimeLinkHost;
  readonly #responses = new OpenResponses();
  readonly #refusals = new Refusals(({ last, report }) => {
    if (this.#closed !== undefined) return;
    this.#cancel(last);
    if (report !== undefined) this.#protocolError('too_many_responses', report);
  });
  #queue: CreateRequest[] = [];
  #inflight: (CreateRequest & { readonly eventId: string }) | undefined;
  #active: ResponseBuffer | undefined;
  /** The server-started response the current turn answers, until its first model call claims it. */
  #turnResponse: ResponseBuffer | undefined;
  /** History entries the server already has. */
  #synced = 0;
  #config = '';
  #counter = 0;
  #closed: ModelError | undefined;

  constructor(host: RealtimeLinkHost) {
    this.#host = host;
  }

  /** As the session's model, the link declares the connection's keys, so the session scrubs them. */
  credentials(): readonly string[] {
    return this.#host.credentials ?? [];
  }

  /** A new turn begins; `response` is the server-started response it answers, if any. */
  beginTurn(response: ResponseBuffer | undefined): void {
    this.#turnResponse = response;
  }

  /** The responses and ids kept (each count bounded: open-responses.ts). */
  get responses(): Pick<OpenResponses, 'size' | 'rememberedCalls' | 'rememberedResponses'> {
    return this.#responses;
  }

  /**
   * Marks the current history as known to the server (a restored session on the same call); its
   * calls already ran, so the server replaying one of their ids runs nothing.
   */
  markSynced(): void {
    const history = this.#host.history();
    this.#synced = history.length;
    this.#responses.rememberHistory(history);
  }

  /** Sends `session.update` when the instructions or tools differ from what the server has. */
  syncConfig(
    instructions: string,
    tools: readonly ChatTool[],
    extra?: Record<string, unknown>,
  ): void {
    const realtimeTools = tools.map(({ function: fn }) => ({
      type: 'function',
      name: fn.name,
      ...(fn.description !== undefined ? { description: fn.description } : {}),
      parameters: fn.parameters,
    }));
    const key = JSON.stringify([instructions, realtimeTools]);
    if (key === this.#config && extra === undefined) return;
    this.#config = key;
    this.#host.send({
      type: 'session.update',
      event_id: this.#nextId('evt'),
      session: {
        type: 'realtime',
        instructions,
        tools: realtimeTools,
        tool_choice: 'auto',
        ...extra,
      },
    });
  }

  /**
   * Sends tool outputs the server has not seen (an interrupted turn's calls that still finished),
   * without asking for a response.
   */
  flushOutputs(): void {
    this.#syncItems(undefined);
  }

  /** Speaks `text` verbatim in its own response, queued behind the current one. */
  say(text: string): void {
    this.#enqueue('say', {
      instructions: `${SAY_INSTRUCTIONS}\n${text}`,
      tool_choice: 'none',
    }).catch(() => undefined);
  }

  /** Drops queued `say` responses not yet sent (the caller barged in). */
  dropQueuedSays(): void {
    const keep: CreateRequest[] = [];
    for (const r of this.#queue) {
      if (r.owner === 'say') r.reject(this.#error('network', 'dropped: the caller barged in'));
      else keep.push(r);
    }
    this.#queue = keep;
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    return this.#stream(request);
  }

  async *#stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
    if (this.#closed !== undefined) throw this.#closed;
    const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
    this.syncConfig(system.join('\n\n'), request.tools);
    const claimed = this.#turnResponse;
    this.#turnResponse = undefined;
    this.#syncItems(claimed);
    const buffer = claimed ?? (await this.#enqueue('turn', {}));
    try {
      yield* buffer.read(request.signal);
    } finally {
      if (!buffer.done) {
        buffer.abandoned = true;
        if (this.#active === buffer && this.#closed === undefined)
          this.#host.send({ type: 'response.cancel', response_id: buffer.id });
      }
    }
  }

  /** Feeds one raw server event. */
  receive(raw: unknown): void {
    const event = readServerEvent(raw);
    if (event !== undefined) this.#handle(event);
  }

  /** The connection is gone: every waiting model call fails, nothing more is sent. */
  close(reason: string): void {
    if (this.#closed !== undefined) return;
    this.#closed = this.#error('network', reason);
    const err = this.#closed;
    this.#inflight?.reject(err);
    this.#inflight = undefined;
    for (const r of this.#queue) r.reject(err);
    this.#queue = [];
    for (const b of this.#responses.clear()) b.fail(err);
    this.#active = undefined;
  }

  #handle(event: ServerEvent): void {
    switch (event.type) {
      case 'response.created':
        this.#created(event.responseId, event.requestId);
        break;
      case 'text-delta': {
        const buffer = this.#responses.get(event.responseId);
        if (buffer !== undefined && !buffer.text(event.delta)) this.#overflowed(buffer);
        break;
      }
      case 'function-call': {
        const buffer = this.#responses.get(event.responseId);
        if (buffer !== undefined) this.#call(buffer, event);
        break;
      }
      case 'response.done': {
        const buffer = this.#responses.get(event.responseId);
        if (buffer !== undefined) {
          for (const c of event.calls) this.#call(buffer, c);
          if (event.status === 'failed')
            buffer.fail(this.#error('bad_response', `the response failed: ${event.reason}`));
          else buffer.finish(event.usage);
          this.#responses.delete(event.responseId);
        }
        if (this.#active?.id === event.responseId) this.#active = undefined;
        this.#pump();
        break;
      }
      case 'error':
        this.#serverError(event.error);
        break;
      case 'speech-started':
        this.#host.speechStarted();
        break;
      case 'user-item':
        this.#host.userItem(event.itemId);
        break;
      case 'transcript':
        this.#host.transcript(event.itemId, event.text);
        break;
      default: {
        const _exhaustive: never = event;
        void _exhaustive;
      }
    }
  }

  #created(responseId: string, requestId: string | undefined): void {
    const inflight = this.#inflight;
    const ours =
      inflight !== undefined && (requestId === undefined || requestId === inflight.requestId);
    const admission = this.#responses.admit(responseId);
    // A second response.created for a known id would replace the first buffer, whose turn then
    // never ends: the repeat is ignored, and the response already known goes on.
    if (admission === 'repeat') {
      this.#protocolError(
        'duplicate_response',
        `response.created repeated response id ${responseId}; the repeat was ignored`,
      );
      // The server names our request under an old id: its events cannot be told apart.
      if (ours && requestId !== undefined) this.#refuseInflight(`reused response id ${responseId}`);
      return;
    }
    if (admission === 'full') {
      this.#refusals.add(responseId, `${MAX_OPEN_RESPONSES} responses are already unfinished`);
      if (ours) this.#refuseInflight(`more than ${MAX_OPEN_RESPONSES} unfinished responses`);
      return;
    }
    const buffer = new ResponseBuffer({
      id: responseId,
      owner: ours ? inflight.owner : 'server',
      holds: (name) => this.#host.toolType(name) === 'action',
    });
    this.#responses.add(buffer);
    this.#active = buffer;
    if (ours) {
      this.#inflight = undefined;
      inflight.resolve(buffer);
    } else {
      const taken = this.#host.serverResponse(buffer);
      if (taken === 'taken') return;
      // No turn holds it, so nothing waits on it: forgetting it is enough.
      this.#responses.delete(responseId);
      this.#refusals.add(responseId, taken === 'ended' ? undefined : taken.busy);
    }
  }

  /** A complete call of `buffer`; a call id an earlier response carried is reported, not run. */
  #call(buffer: ResponseBuffer, call: ServerFunctionCall): void {
    const outcome = this.#responses.call(buffer, call);
    if (outcome.type === 'overflow') this.#overflowed(buffer);
    else if (outcome.type === 'replay') {
      const where = outcome.first === '' ? 'the session history' : `response ${outcome.first}`;
      this.#protocolError(
        'duplicate_call_id',
        `response ${buffer.id} replayed call id ${call.callId} of ${where}; it was not run again`,
      );
    }
  }

  /** The response broke its bounds and failed: it is forgotten, and cancelled if it runs. */
  #overflowed(buffer: ResponseBuffer): void {
    this.#responses.delete(buffer.id);
    if (this.#active === buffer) this.#cancel(buffer.id);
  }

  #refuseInflight(reason: string): void {
    const inflight = this.#inflight;
    if (inflight === undefined) return;
    this.#inflight = undefined;
    inflight.reject(this.#error('bad_response', reason));
    this.#pump();
  }

  #cancel(responseId: string): void {
    if (this.#closed === undefined)
      this.#host.send({ type: 'response.cancel', response_id: responseId });
  }

  #protocolError(code: string, message: string): void {
    this.#host.serverError({ code, message: `realtime: ${message}` });
  }

  #serverError(error: RealtimeServerError): void {
    const inflight = this.#inflight;
    if (inflight !== undefined && error.eventId === inflight.eventId) {
      this.#inflight = undefined;
      inflight.reject(this.#error('bad_response', `${error.code}: ${error.message}`));
      this.#pump();
      return;
    }
    // Cancelling a response that already ended is a race, not a failure.
    if (error.code === 'response_cancel_not_active') return;
    this.#host.serverError(error);
  }

  #syncItems(claimed: ResponseBuffer | undefined): void {
    const history = this.#host.history();
    // The user message of a speech-started turn is the caller's audio: the server has it.
    const audioUser = claimed === undefined ? -1 : lastUserIndex(history);
    for (let i = this.#synced; i < history.length; i++) {
      const m = history[i];
      if (m === undefined) continue;
      if (m.role === 'user' && i !== audioUser) {
        this.#host.send({
          type: 'conversation.item.create',
          event_id: this.#nextId('evt'),
          item: {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: m.content }],
          },
        });
      } else if (m.role === 'tool') {
        this.#host.send({
          type: 'conversation.item.create',
          event_id: this.#nextId('evt'),
          item: { type: 'function_call_output', call_id: m.tool_call_id, output: m.content },
        });
      }
    }
    this.#synced = history.length;
  }

  #enqueue(owner: ResponseOwner, response: Record<string, unknown>): Promise<ResponseBuffer> {
    if (this.#closed !== undefined) return Promise.reject(this.#closed);
    return new Promise((resolve, reject) => {
      this.#queue.push({ requestId: this.#nextId('req'), owner, response, resolve, reject });
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#active !== undefined || this.#inflight !== undefined) return;
    if (this.#closed !== undefined) return;
    const next = this.#queue.shift();
    if (next === undefined) return;
    const eventId = this.#nextId('evt');
    this.#inflight = { ...next, eventId };
    this.#host.send({
      type: 'response.create',
      event_id: eventId,
      response: { ...next.response, metadata: { switchboard_request: next.requestId } },
    });
  }

  #nextId(prefix: string): string {
    return `sb_${prefix}_${(++this.#counter).toString(36)}`;
  }

  #error(code: 'network' | 'bad_response', message: string): ModelError {
    return new ModelError({ code, model: this.name, message: `realtime: ${message}` });
  }
}

function lastUserIndex(history: readonly ChatMessage[]): number {
  for (let i = history.length - 1; i >= 0; i--) if (history[i]?.role === 'user') return i;
  return -1;
}
