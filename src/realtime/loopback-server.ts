/**
 * A Realtime server on loopback for tests, `switchboard test --realtime` and
 * `switchboard simulate --realtime` (part of `switchboard/testing`). It speaks the documented
 * event shapes of OpenAI's Realtime API over a `ws` WebSocket at `/v1/realtime`, with a
 * {@link Model} as its brain (a scripted model in tests): each `response.create` asks the model,
 * and its answer streams back as transcript deltas and function calls. No audio is produced: the
 * transcript stands for what the model "said".
 *
 * A response whose instructions start with the verbatim-say marker is spoken as given, without
 * asking the model (switchboard's `say` effect). The test controls play the caller:
 * {@link RealtimeLoopback.callerSays} (speech, a server-started response, the transcript after a
 * delay) and {@link RealtimeLoopback.bargeIn}. Its public shape is in realtime-loopback.ts; reading
 * client events, the model's chat request and function call events are in their own files.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { isModelError } from '../models/errors.js';
import type { Model, ModelToolCall } from '../models/types.js';
import { chatMessages, chatTools } from './chat-messages.js';
import { applySessionUpdate, clientItem, isObject } from './client-events.js';
import { functionCallEvents } from './function-call-events.js';
import { SAY_INSTRUCTIONS } from './realtime-link.js';
import { argumentError } from '../option-checks.js';
import type {
  LoopbackItem,
  RealtimeLoopback,
  RealtimeLoopbackOptions,
} from './realtime-loopback.js';

export type { RealtimeLoopback, RealtimeLoopbackOptions } from './realtime-loopback.js';

interface ActiveResponse {
  readonly id: string;
  readonly controller: AbortController;
}

/** Starts a loopback Realtime server. */
export async function startRealtimeLoopback(
  options: RealtimeLoopbackOptions,
): Promise<RealtimeLoopback> {
  const model = (options as { model?: { stream?: unknown } } | null | undefined)?.model;
  if (typeof model?.stream !== 'function')
    throw argumentError(
      'startRealtimeLoopback(options.model)',
      'a Model (an object with stream(), e.g. new ScriptedModel(steps))',
      model,
    );
  const web = options.tls === undefined ? createServer() : createHttpsServer(options.tls);
  web.listen(options.port ?? 0, '127.0.0.1');
  await once(web, 'listening');
  const wss = new WebSocketServer({ server: web, path: '/v1/realtime' });
  const { port } = web.address() as AddressInfo;
  const scheme = options.tls === undefined ? 'http' : 'https';
  return new LoopbackServer(options.model, wss, web, `${scheme}://127.0.0.1:${port}/v1`);
}

class LoopbackServer implements RealtimeLoopback {
  readonly baseURL: string;
  readonly url: string;
  readonly received: Record<string, unknown>[] = [];
  readonly items: LoopbackItem[] = [];
  readonly config: {
    instructions: string;
    tools: readonly Record<string, unknown>[];
    transcriptionLanguage?: string;
  } = {
    instructions: '',
    tools: [],
  };
  readonly #model: Model;
  readonly #wss: WebSocketServer;
  #socket: WebSocket | undefined;
  #active: ActiveResponse | undefined;
  #running: Promise<void> = Promise.resolve();
  #ids = 0;
  readonly #timers = new Set<NodeJS.Timeout>();

  readonly #web: Server;

  constructor(model: Model, wss: WebSocketServer, web: Server, baseURL: string) {
    this.#model = model;
    this.#wss = wss;
    this.#web = web;
    this.baseURL = baseURL;
    this.url = `${baseURL.replace(/^http/, 'ws')}/realtime`;
    wss.on('connection', (socket) => {
      this.#socket = socket;
      socket.on('message', (data) => this.#onMessage(String(data)));
      socket.on('close', () => {
        if (this.#socket === socket) this.#socket = undefined;
        this.#active?.controller.abort();
      });
      this.emit({ type: 'session.created', session: { id: this.#id('sess'), type: 'realtime' } });
    });
  }

  emit(event: Record<string, unknown>): void {
    const socket = this.#socket;
    if (socket !== undefined && socket.readyState === socket.OPEN)
      socket.send(JSON.stringify({ event_id: this.#id('event'), ...event }));
  }

  callerSays(text: string, options: { readonly transcriptDelayMs?: number } = {}): void {
    this.bargeIn();
    const item: LoopbackItem = { id: this.#id('item'), type: 'message', role: 'user', text };
    this.emit({ type: 'input_audio_buffer.speech_stopped', item_id: item.id });
    this.emit({ type: 'input_audio_buffer.committed', item_id: item.id });
    this.items.push(item);
    this.emit({
      type: 'conversation.item.added',
      item: {
        id: item.id,
        type: 'message',
        role: 'user',
        content: [{ type: 'input_audio', transcript: null }],
      },
    });
    const transcript = (): void =>
      this.emit({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: item.id,
        content_index: 0,
        transcript: text,
      });
    const delay = options.transcriptDelayMs ?? 0;
    if (delay === 0) transcript();
    else this.#later(delay, transcript);
    this.#respond(undefined, {});
  }

  bargeIn(): void {
    this.emit({
      type: 'input_audio_buffer.speech_started',
      audio_start_ms: 0,
      item_id: this.#id('item'),
    });
    this.#cancelActive();
  }

  dropClient(): void {
    this.#socket?.terminate();
  }

  async idle(): Promise<void> {
    for (let last: Promise<void> | undefined; last !== this.#running;) {
      last = this.#running;
      await last;
    }
  }

  async close(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    this.#active?.controller.abort();
    for (const client of this.#wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.#wss.close(() => resolve()));
    this.#web.closeAllConnections();
    await new Promise<void>((resolve) => this.#web.close(() => resolve()));
  }

  #onMessage(data: string): void {
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(data) as Record<string, unknown>;
    } catch {
      this.#error('invalid_json', 'the event is not JSON', undefined);
      return;
    }
    this.received.push(event);
    const eventId = typeof event.event_id === 'string' ? event.event_id : undefined;
    switch (event.type) {
      case 'session.update':
        applySessionUpdate(this.config, event.session);
        this.emit({
          type: 'session.updated',
          session: {
            type: 'realtime',
            instructions: this.config.instructions,
            tools: this.config.tools,
          },
        });
        break;
      case 'conversation.item.create':
        this.#itemCreate(event.item, eventId);
        break;
      case 'response.create':
        if (this.#active !== undefined) {
          this.#error(
            'conversation_already_has_active_response',
            `Conversation already has an active response in progress: ${this.#active.id}`,
            eventId,
          );
          break;
        }
        this.#respond(eventId, isObject(event.response) ? event.response : {});
        break;
      case 'response.cancel':
        if (this.#active === undefined)
          this.#error(
            'response_cancel_not_active',
            'Cancellation failed: no active response found',
            eventId,
          );
        else this.#cancelActive();
        break;
      default:
        this.#error(
          'invalid_event',
          `unsupported event type ${JSON.stringify(event.type)}`,
          eventId,
        );
    }
  }

  #itemCreate(raw: unknown, eventId: string | undefined): void {
    if (!isObject(raw)) return this.#error('invalid_item', 'item missing', eventId);
    const id = this.#id('item');
    const item = clientItem(raw, id);
    if (item === undefined) return this.#error('invalid_item', 'unsupported item', eventId);
    this.items.push(item);
    this.emit({ type: 'conversation.item.added', previous_item_id: null, item: { ...raw, id } });
  }

  #respond(eventId: string | undefined, params: Record<string, unknown>): void {
    const id = this.#id('resp');
    const controller = new AbortController();
    this.#active = { id, controller };
    const metadata = isObject(params.metadata) ? params.metadata : null;
    this.emit({
      type: 'response.created',
      response: { id, object: 'realtime.response', status: 'in_progress', metadata, output: [] },
    });
    const instructions = typeof params.instructions === 'string' ? params.instructions : undefined;
    const run =
      instructions?.startsWith(`${SAY_INSTRUCTIONS}\n`) === true
        ? this.#speak(id, instructions.slice(SAY_INSTRUCTIONS.length + 1), controller.signal)
        : this.#think(id, controller.signal);
    this.#running = this.#running.then(() => run).catch(() => undefined);
    void eventId;
  }

  async #speak(responseId: string, text: string, signal: AbortSignal): Promise<void> {
    await tick();
    const output = signal.aborted ? [] : [this.#message(responseId, text)];
    this.#done(responseId, signal.aborted ? 'cancelled' : 'completed', output, undefined);
  }

  async #think(responseId: string, signal: AbortSignal): Promise<void> {
    const output: Record<string, unknown>[] = [];
    let text = '';
    const calls: ModelToolCall[] = [];
    let usage: { input_tokens: number; output_tokens: number } | undefined;
    try {
      const stream = this.#model.stream({
        messages: chatMessages(this.config, this.items),
        tools: chatTools(this.config.tools),
        signal,
      });
      for await (const part of stream) {
        if (signal.aborted) break;
        if (part.type === 'text-delta') {
          text += part.text;
          this.emit({
            type: 'response.output_audio_transcript.delta',
            response_id: responseId,
            item_id: `${responseId}_msg`,
            output_index: 0,
            content_index: 0,
            delta: part.text,
          });
        } else if (part.type === 'tool-call') {
          calls.push(part.call);
        } else if (part.usage !== undefined) {
          usage = { input_tokens: part.usage.inputTokens, output_tokens: part.usage.outputTokens };
        }
      }
    } catch (error) {
      if (!signal.aborted) {
        const message =
          isModelError(error) || error instanceof Error ? error.message : String(error);
        this.#done(responseId, 'failed', output, undefined, {
          type: 'failed',
          error: { type: 'server_error', message },
        });
        return;
      }
    }
    if (text !== '') output.push(this.#message(responseId, text));
    for (const call of calls) {
      if (signal.aborted) break;
      const item = {
        id: this.#id('item'),
        type: 'function_call',
        status: 'completed',
        call_id: call.id,
        name: call.name,
        arguments: call.arguments,
      };
      this.items.push({
        id: item.id,
        type: 'function_call',
        call_id: call.id,
        name: call.name,
        arguments: call.arguments,
        response: responseId,
      });
      for (const event of functionCallEvents(responseId, output.length, item)) this.emit(event);
      output.push(item);
    }
    this.#done(responseId, signal.aborted ? 'cancelled' : 'completed', output, usage);
  }

  #message(responseId: string, text: string): Record<string, unknown> {
    const item = {
      id: this.#id('item'),
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_audio', transcript: text }],
    };
    this.items.push({ id: item.id, type: 'message', role: 'assistant', text });
    this.emit({
      type: 'response.output_audio_transcript.done',
      response_id: responseId,
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      transcript: text,
    });
    this.emit({
      type: 'response.output_audio.done',
      response_id: responseId,
      item_id: item.id,
      output_index: 0,
      content_index: 0,
    });
    return item;
  }

  #done(
    responseId: string,
    status: string,
    output: readonly Record<string, unknown>[],
    usage: { input_tokens: number; output_tokens: number } | undefined,
    statusDetails?: Record<string, unknown>,
  ): void {
    if (this.#active?.id === responseId) this.#active = undefined;
    this.emit({
      type: 'response.done',
      response: {
        id: responseId,
        object: 'realtime.response',
        status,
        status_details: statusDetails ?? null,
        output,
        usage: usage ?? null,
      },
    });
  }

  #cancelActive(): void {
    const active = this.#active;
    if (active === undefined) return;
    active.controller.abort();
  }

  #error(code: string, message: string, eventId: string | undefined): void {
    this.emit({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        code,
        message,
        param: null,
        event_id: eventId ?? null,
      },
    });
  }

  #later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    this.#timers.add(timer);
  }

  #id(prefix: string): string {
    return `${prefix}_${(++this.#ids).toString(36)}`;
  }
}

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
