/**
 * What a Realtime loopback server is to its users: its options, the controls a test plays the
 * caller with, and the conversation items it keeps.
 */
import type { Model } from '../models/types.js';

/** Options of {@link startRealtimeLoopback}. */
export interface RealtimeLoopbackOptions {
  /** The brain: asked once per model response. */
  readonly model: Model;
  /** Default 0 (a free port). Always listens on 127.0.0.1. */
  readonly port?: number;
  /**
   * Serve `wss:` with this key and certificate (PEM). The `openai` package's `OpenAIRealtimeWS`
   * always dials `wss:`; plain `ws:` suits {@link connectRealtime}. Default: plain.
   */
  readonly tls?: { readonly key: string; readonly cert: string };
}

/** A conversation item as the server keeps it. */
export type LoopbackItem =
  | {
      readonly id: string;
      readonly type: 'message';
      readonly role: 'user' | 'assistant';
      text: string;
    }
  | {
      readonly id: string;
      readonly type: 'function_call';
      readonly call_id: string;
      readonly name: string;
      readonly arguments: string;
      readonly response: string;
    }
  | {
      readonly id: string;
      readonly type: 'function_call_output';
      readonly call_id: string;
      readonly output: string;
    };

/** A running loopback server. */
export interface RealtimeLoopback {
  /** `http(s)://127.0.0.1:PORT/v1`: the `baseURL` of an `OpenAI` client for `OpenAIRealtimeWS`. */
  readonly baseURL: string;
  /** `ws(s)://127.0.0.1:PORT/v1/realtime`: for {@link connectRealtime}. */
  readonly url: string;
  /** Every client event received, in order (for assertions). */
  readonly received: readonly Record<string, unknown>[];
  /** The server's conversation items, in order. */
  readonly items: readonly Readonly<LoopbackItem>[];
  /** Current session config from `session.update`. */
  readonly config: {
    instructions: string;
    tools: readonly Record<string, unknown>[];
    transcriptionLanguage?: string;
  };
  /** The caller speaks: speech events, a server-started response, the transcript after `transcriptDelayMs` (default 0). */
  callerSays(text: string, options?: { readonly transcriptDelayMs?: number }): void;
  /** The caller starts speaking (and says nothing the model answers yet). */
  bargeIn(): void;
  /** Sends a raw server event (to test malformed or `error` events). */
  emit(event: Record<string, unknown>): void;
  /** Closes the client socket (the call dropped). */
  dropClient(): void;
  /** Resolves when no response is running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}
