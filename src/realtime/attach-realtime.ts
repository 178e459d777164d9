/**
 * attachRealtime: switchboard as the tool layer of an OpenAI Realtime (speech-to-speech) call.
 *
 * The session runs its usual turn loop with the connection as its model ({@link RealtimeLink}), so
 * a call from a Realtime model goes through the same pipeline as in a text session: limits, parse,
 * JSON Schema, static parameters, `defaults`, handler, `options.save`, effects, traces, events.
 * What is Realtime-specific lives here: a turn starts when the server starts a response on the
 * caller's speech; the caller's speech interrupts the turn; effects become client events (`say` →
 * a verbatim response, `language`/handoff → `session.update`); the caller's transcript lands in
 * the history when the server sends it. (About 400 lines: the attachment's life — open, turns,
 * interruptions, transcripts, restore, close — reads as one piece.)
 */
import { checkAttachOptions } from './check-realtime-options.js';
import { isObject } from './client-events.js';
import { createSession, restoreSession, turnHostOf } from '../session/create-session.js';
import { LazySystemValues } from '../session/session-state.js';
import type { TurnHost } from '../session/turn-host.js';
import type {
  Session,
  SessionEvent,
  SessionOptions,
  SessionState,
  TurnResult,
  TurnStream,
} from '../session/types.js';
import { rememberLatest } from './recent-ids.js';
import { ReadSlices } from './read-slices.js';
import { RealtimeLink } from './realtime-link.js';
import type { ResponseBuffer } from './response-buffer.js';
import type {
  AttachRealtimeOptions,
  RealtimeAttachment,
  RealtimeClientEvent,
  RealtimeServerError,
} from './types.js';

/** Default transcription model named when the language changes. */
export const DEFAULT_TRANSCRIPTION_MODEL = 'gpt-4o-mini-transcribe';

/** Caller transcripts kept for responses that have not started their turn yet. */
const MAX_PENDING_TRANSCRIPTS = 32;

/**
 * Most server-started responses waiting for their turn (behind the running one): 4. The caller
 * speaking again interrupts the running turn, so more than one or two means the server is
 * starting responses faster than any caller speaks; the rest are cancelled and reported.
 */
export const MAX_WAITING_SERVER_TURNS = 4;
const BUSY = {
  busy: `${MAX_WAITING_SERVER_TURNS} server-started responses already wait for their turn`,
} as const;

/**
 * Attaches a session to a Realtime connection and returns it with its attachment. The session's
 * tools and rendered prompt are sent with `session.update` at once (when the socket is open) and
 * again whenever the agent, language or rendered prompt changes.
 */
export function attachRealtime(options: AttachRealtimeOptions): RealtimeAttachment {
  checkAttachOptions(options);
  return new Attachment(options);
}

class Attachment implements RealtimeAttachment {
  readonly session: Session;
  readonly ready: Promise<void>;
  readonly #options: AttachRealtimeOptions;
  readonly #link: RealtimeLink;
  #live: Session;
  #host: TurnHost;
  /** Per queued turn, in order: the server response it answers, or undefined for typed input. */
  #owners: (ResponseBuffer | undefined)[] = [];
  #lastUserItem: string | undefined;
  readonly #transcripts = new Map<string, string>();
  /** Caller items whose transcript is still due, with the history index of their user message. */
  readonly #patches = new Map<string, number>();
  #pendingPatchItem: string | undefined;
  /** Server-started responses whose turn is queued or about to be (transcript wait). */
  #waitingServerTurns = 0;
  #held: RealtimeClientEvent[] | undefined;
  #closed = false;
  readonly #slices: ReadSlices;

  constructor(options: AttachRealtimeOptions) {
    this.#options = options;
    this.#link = new RealtimeLink({
      send: (event) => this.#send(event),
      toolType: (name) => options.session.tools.tools.get(name)?.type,
      history: () => this.#host.state.history,
      serverResponse: (buffer) => this.#serverResponse(buffer),
      speechStarted: () => {
        this.#live.interrupt();
        this.#link.dropQueuedSays();
      },
      userItem: (itemId) => (this.#lastUserItem = itemId),
      transcript: (itemId, text) => this.#transcript(itemId, text),
      serverError: (error) => this.#serverError(error),
      credentials: [
        ...(options.connection.credentials?.() ?? []),
        ...(options.credentials ?? []).filter((c) => c !== null),
      ],
    });
    [this.#live, this.#host] = this.#open(options.state);
    if (options.state !== undefined) this.#link.markSynced();
    this.session = new AttachedSession(this);

    const connection = options.connection;
    this.#slices = new ReadSlices(connection.socket, () => !this.#closed);
    connection.on('event', this.#onEvent);
    connection.on('error', this.#onError);
    connection.socket?.on('close', this.#onClose);
    if (connection.socket?.readyState === 0) {
      this.#held = [];
      this.ready = new Promise((resolve) => {
        connection.socket?.on('open', () => {
          const held = this.#held ?? [];
          this.#held = undefined;
          for (const event of held) this.#send(event);
          resolve();
        });
      });
    } else {
      this.ready = Promise.resolve();
    }
    this.#syncConfig();
  }

  get closed(): boolean {
    return this.#closed;
  }

  get live(): Session {
    return this.#live;
  }

  /** Typed input (the host's `session.send`): the link sends it as a user item. */
  sendText(text: string): TurnStream {
    this.#owners.push(undefined);
    try {
      return this.#live.send(text);
    } catch (error) {
      this.#owners.pop();
      throw error;
    }
  }

  async restore(state: SessionState): Promise<Session> {
    const old = this.#live;
    await old.close();
    // The old session's queued turns never start: their responses no longer wait.
    for (const owner of this.#owners) if (owner !== undefined) this.#waitingServerTurns--;
    this.#owners = [];
    [this.#live, this.#host] = this.#open(state);
    this.#link.markSynced();
    this.#syncConfig();
    return this.session;
  }

  async close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      const connection = this.#options.connection;
      connection.off?.('event', this.#onEvent);
      connection.off?.('error', this.#onError);
      connection.socket?.off?.('close', this.#onClose);
      this.#link.close('the attachment was closed');
    }
    await this.#live.close();
  }

  #open(state: SessionState | undefined): [Session, TurnHost] {
    const given = this.#options.session;
    const options: SessionOptions = {
      ...given,
      model: this.#link,
      onEvent: (event) => {
        this.#sessionEvent(event);
        given.onEvent?.(event);
      },
    };
    const session = state === undefined ? createSession(options) : restoreSession(state, options);
    const host = turnHostOf(session);
    if (host === undefined) throw new TypeError('attachRealtime: the session has no turn loop');
    return [session, host];
  }

  readonly #onEvent = (event: unknown): void => {
    if (this.#closed) return;
    this.#link.receive(event);
    this.#slices.counted();
  };

  /**
   * Transport failures. A server `error` event (handled as `event`) comes here too as an error
   * whose `error` is its error object; OpenAIRealtimeWS's transport errors leave it undefined.
   */
  readonly #onError = (error: unknown): void => {
    const inner = isObject(error) && Object.hasOwn(error, 'error') ? error.error : undefined;
    if (isObject(inner) || this.#closed) return;
    this.#serverError({
      code: 'transport',
      message: error instanceof Error ? error.message : String(error),
    });
  };

  readonly #onClose = (): void => {
    this.#link.close('the Realtime connection closed');
    void this.close().catch(() => undefined);
  };

  #send(event: RealtimeClientEvent): void {
    if (this.#closed) return;
    if (this.#held !== undefined) {
      this.#held.push(event);
      return;
    }
    try {
      this.#options.connection.send(event);
    } catch (error) {
      this.#onError(error);
    }
  }

  #syncConfig(extra?: Record<string, unknown>): void {
    const host = this.#host;
    const system = new LazySystemValues(host);
    const instructions = host
      .systemMessages(system)
      .map((m) => m.content)
      .join('\n\n');
    this.#link.syncConfig(instructions, host.chatTools(host.activeTools(), system), extra);
  }

  #sessionEvent(event: SessionEvent): void {
    switch (event.type) {
      case 'turn-start': {
        const owner = this.#owners.shift();
        if (owner !== undefined) this.#waitingServerTurns--;
        this.#link.beginTurn(owner);
        const item = owner?.userItemId;
        // runTurn appends the user message right after `turn-start`: its index is the length now.
        if (item !== undefined && event.user === '' && !this.#transcripts.has(item))
          rememberLatest(
            this.#patches,
            item,
            this.#host.state.history.length,
            MAX_PENDING_TRANSCRIPTS,
          );
        break;
      }
      case 'say':
        this.#link.say(event.text);
        break;
      case 'language':
        this.#syncConfig({
          audio: {
            input: {
              transcription: {
                model: this.#options.transcriptionModel ?? DEFAULT_TRANSCRIPTION_MODEL,
                language: event.to.split('-')[0] ?? event.to,
              },
            },
          },
        });
        break;
      case 'handoff':
      case 'vars':
      case 'workflow':
        this.#syncConfig();
        break;
      case 'turn-end':
        this.#link.flushOutputs();
        break;
      default:
        break;
    }
  }

  /** Unless `taken`, the link cancels the response. */
  #serverResponse(buffer: ResponseBuffer): 'taken' | 'ended' | { readonly busy: string } {
    // The live session's own flag: a flag of the attachment's would outlive a restore.
    if (this.#closed || this.#live.ended) return 'ended';
    if (this.#waitingServerTurns >= MAX_WAITING_SERVER_TURNS) return BUSY;
    this.#waitingServerTurns++;
    const item = this.#lastUserItem;
    this.#lastUserItem = undefined;
    buffer.userItemId = item;
    const wait = this.#options.transcriptWaitMs ?? 0;
    if (item !== undefined && wait > 0 && !this.#transcripts.has(item)) {
      this.#pendingPatchItem = item;
      const timer = setTimeout(() => start(), wait);
      const start = (): void => {
        clearTimeout(timer);
        if (this.#pendingPatchItem === item) this.#pendingPatchItem = undefined;
        this.#startServerTurn(buffer);
      };
      this.#waiting = start;
      return 'taken';
    }
    this.#startServerTurn(buffer);
    return 'taken';
  }

  #waiting: (() => void) | undefined;

  #startServerTurn(buffer: ResponseBuffer): void {
    this.#waiting = undefined;
    const item = buffer.userItemId;
    const text = item === undefined ? '' : (this.#transcripts.get(item) ?? '');
    if (item !== undefined) this.#transcripts.delete(item);
    this.#owners.push(buffer);
    try {
      this.#live.send(text).result.catch(() => undefined);
    } catch {
      this.#owners.pop();
      this.#waitingServerTurns--;
      this.#send({ type: 'response.cancel', response_id: buffer.id });
    }
  }

  #transcript(itemId: string, text: string): void {
    const index = this.#patches.get(itemId);
    if (index !== undefined) {
      this.#patches.delete(itemId);
      const message = this.#host.state.history[index];
      if (message?.role === 'user' && message.content === '')
        this.#host.snapshots.replaceHistoryMessage(this.#host.state, index, {
          role: 'user',
          content: text,
        });
      return;
    }
    rememberLatest(this.#transcripts, itemId, text, MAX_PENDING_TRANSCRIPTS);
    if (this.#pendingPatchItem === itemId) this.#waiting?.();
  }

  /** Reports a server or transport error, scrubbed: a server may echo the key it was sent. */
  #serverError(error: RealtimeServerError): void {
    const scrub = (text: string): string => this.#host.secrets().scrubText(text);
    this.#options.onServerError?.({
      ...error,
      code: scrub(error.code),
      message: scrub(error.message),
    });
  }
}

/**
 * The session handed to the host: the live session, with typed input routed through the
 * attachment so each turn knows whether the caller's speech or the host started it.
 */
class AttachedSession implements Session {
  readonly #attachment: Attachment;

  constructor(attachment: Attachment) {
    this.#attachment = attachment;
  }

  get id(): string {
    return this.#attachment.live.id;
  }

  get ended(): boolean {
    return this.#attachment.live.ended;
  }

  get vars(): Readonly<Record<string, unknown>> {
    return this.#attachment.live.vars;
  }

  get language(): string {
    return this.#attachment.live.language;
  }

  send(userText: string): TurnStream {
    return this.#attachment.sendText(userText);
  }

  run(userText: string): Promise<TurnResult> {
    return this.send(userText).result;
  }

  interrupt(): boolean {
    return this.#attachment.live.interrupt();
  }

  spoken(speechId: string): boolean {
    return this.#attachment.live.spoken(speechId);
  }

  spokenAll(): number {
    return this.#attachment.live.spokenAll();
  }

  idle(): Promise<void> {
    return this.#attachment.live.idle();
  }

  toJSON(): SessionState {
    return this.#attachment.live.toJSON();
  }

  close(): Promise<void> {
    return this.#attachment.close();
  }
}
