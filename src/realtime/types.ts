/**
 * Public types of the Realtime transport: the connection switchboard talks through (the `openai`
 * package's `OpenAIRealtimeWS`, or any object with the same `send`/`on` shape) and the options of
 * {@link attachRealtime}.
 */
import type { SessionOptions, SessionState, Session } from '../session/types.js';

/** A client event sent to the Realtime server (`session.update`, `response.create`, …). */
export interface RealtimeClientEvent {
  readonly type: string;
  readonly event_id?: string;
  readonly [key: string]: unknown;
}

/** What a connection's `send` accepts (the `openai` package's own event union fits it). */
export interface RealtimeSendable {
  readonly type: string;
}

/**
 * The socket switchboard drives. `OpenAIRealtimeWS` from `openai/realtime/ws` fits as it is: it
 * emits every server event as `event`, transport failures as `error`. A host's own socket fits
 * when it does the same; a `close` listener (or a `socket` with one, as `OpenAIRealtimeWS` has)
 * tells switchboard the call is over.
 */
export interface RealtimeConnection {
  send(event: RealtimeSendable): void;
  on(event: 'event', listener: (event: unknown) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  off?(event: 'event' | 'error', listener: (...args: never[]) => void): unknown;
  /**
   * The API keys the connection was opened with, to be scrubbed from what the session shows.
   * `connectRealtime`'s connections have it; `AttachRealtimeOptions.credentials` adds more.
   */
  credentials?(): readonly string[];
  /** `OpenAIRealtimeWS` exposes its `ws` socket; its `close` event ends the attachment. */
  readonly socket?: {
    /** 0 while connecting (events are held until `open`), 1 when open. */
    readonly readyState?: number;
    on(event: 'open' | 'close', listener: () => void): unknown;
    off?(event: 'open' | 'close', listener: () => void): unknown;
    /**
     * Stop and restart reading (a `ws` WebSocket has both): a flood of server events is read in
     * slices, so the event loop turns between them.
     */
    pause?(): void;
    resume?(): void;
  };
}

/** A Realtime server `error` event, as the host sees it. */
export interface RealtimeServerError {
  readonly code: string;
  readonly message: string;
  /** The client event that caused it, when the server names it. */
  readonly eventId?: string;
}

/** Options of {@link attachRealtime}. */
export interface AttachRealtimeOptions {
  readonly connection: RealtimeConnection;
  /** The session's options; its model is the Realtime connection, so `model` is not given. */
  readonly session: Omit<SessionOptions, 'model'>;
  /** Restore this state instead of starting a new session (a call moved between processes). */
  readonly state?: SessionState;
  /**
   * Transcription model named in `session.update` when the language changes (the transcription
   * language follows the session's language). Default `gpt-4o-mini-transcribe`.
   */
  readonly transcriptionModel?: string;
  /**
   * How long a turn started by the caller's speech waits for the caller's transcript before it
   * starts without it (the transcript still lands in history when it arrives). Default 0: tools
   * never wait for transcription.
   */
  readonly transcriptWaitMs?: number;
  /**
   * The model's API keys (e.g. `[openai.apiKey]` for an `OpenAIRealtimeWS` made with that client),
   * added to the connection's own `credentials()`. They join the session's secrets: scrubbed
   * (`[redacted]`) from model errors, events, spans and `onServerError`, as service secrets are.
   * Default: the connection's only. A `null` entry (the OpenAI client's `apiKey` when it has
   * none of its own) holds nothing to scrub and is skipped.
   */
  readonly credentials?: readonly (string | null)[];
  /**
   * Server `error` events not tied to a model call of a turn, with the session's secrets
   * scrubbed from their code and message. Default: ignored.
   */
  readonly onServerError?: (error: RealtimeServerError) => void;
}

/** What {@link attachRealtime} returns. */
export interface RealtimeAttachment {
  /** The live session (replaced by {@link RealtimeAttachment.restore}). */
  readonly session: Session;
  /** Resolves once the socket is open and the first `session.update` was sent. */
  readonly ready: Promise<void>;
  /** True once the connection closed or {@link RealtimeAttachment.close} was called. */
  readonly closed: boolean;
  /** Replaces the session by one restored from `state` (the host changed variables between turns). */
  restore(state: SessionState): Promise<Session>;
  /** Detaches from the connection and closes the session (the connection stays the host's). */
  close(): Promise<void>;
}
