/**
 * The model interface every adapter implements (OpenAI-compatible, text markers, scripted).
 * Messages and tools are in OpenAI Chat Completions shape, the lingua franca of the adapters.
 */

/** A tool call as the model made it; `arguments` is the raw JSON string. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One chat message in OpenAI Chat Completions shape. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string | null;
      readonly tool_calls?: readonly {
        readonly id: string;
        readonly type: 'function';
        readonly function: { readonly name: string; readonly arguments: string };
      }[];
    }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/** A function tool in OpenAI Chat Completions shape. */
export interface ChatTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters: Record<string, unknown>;
    readonly strict?: boolean;
  };
}

/** Token usage, when the model reports it. */
export interface ModelUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The usage of an answer that reported none: one frozen object, shared. */
export const NO_USAGE: ModelUsage = Object.freeze({ inputTokens: 0, outputTokens: 0 });

/** One part of a model's streamed answer. */
export type ModelStreamPart =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'tool-call'; readonly call: ModelToolCall }
  | { readonly type: 'finish'; readonly usage?: ModelUsage };

/** One request to a model. */
export interface ModelRequest {
  /**
   * System messages, then the conversation. Read-only, and valid for this call only: the session
   * reuses the array for its next call (no history copy per round), so a model that keeps
   * requests must copy them.
   */
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ChatTool[];
  /**
   * Aborted on interruption; the adapter must stop streaming promptly. Valid for this call only:
   * when no listener is left on it, it may serve a later turn, of this session or another.
   */
  readonly signal: AbortSignal;
  /** Model id to use for this call instead of the adapter's own (`SessionOptions.modelId`). */
  readonly modelId?: string;
}

/** A chat model that can call tools. */
export interface Model {
  /** Human name, e.g. `openai:gpt-4o-mini` or `scripted`. */
  readonly name: string;
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
  /**
   * The credentials the adapter sends (API keys). The session adds them to the secrets it scrubs
   * from everything it shows, model error messages included.
   */
  credentials?(): readonly string[];
}
