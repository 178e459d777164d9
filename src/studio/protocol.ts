/**
 * What the studio's server and its page exchange: plain JSON types, shared by both sides (the
 * page's bundle imports them as types only, so nothing of the engine reaches the browser).
 */

/** What kind of thing a timeline item is. */
export type TimelineKind =
  | 'caller'
  | 'model'
  | 'tool'
  | 'http'
  | 'speech'
  | 'reply'
  | 'language'
  | 'vars'
  | 'action'
  | 'command'
  | 'log'
  | 'handoff'
  | 'workflow'
  | 'interrupted'
  | 'error'
  | 'session-end';

/** One bar (or point) of a turn's waterfall. Times are ms from the turn's start. */
export interface TimelineItem {
  readonly id: string;
  readonly kind: TimelineKind;
  readonly label: string;
  /** Absent when the item's time is not known (a saved session has no clock). */
  readonly startMs?: number;
  /** Absent for an instant (or unknown) end. */
  readonly endMs?: number;
  /** 0: the turn's level; 1: inside a tool call (its HTTP attempts, its phrases). */
  readonly depth: 0 | 1;
  /** A failure's stable code (`timeout`, `http_status`…), shown on the bar. */
  readonly code?: string;
  /**
   * `--speech-ack host` only, on speech and reply rows: `waiting` until the page marks the
   * utterance spoken, then `played`.
   */
  readonly playback?: 'waiting' | 'played';
  /** A speak-then-act call not dispatched yet: speech before it waits for playback. */
  readonly heldBySpeech?: boolean;
  /** Shown when the item is opened: bodies scrubbed of secrets, transform steps, blame. */
  readonly detail: Readonly<Record<string, unknown>>;
}

/** One turn of a conversation as the timeline shows it. */
export interface TimelineTurn {
  readonly index: number;
  readonly user: string;
  /** The turn is still running. */
  readonly running: boolean;
  readonly totalMs?: number;
  readonly items: readonly TimelineItem[];
}

/** A tool as the browser shows it. */
export interface ToolView {
  readonly name: string;
  readonly type: string;
  readonly description?: string;
  /** The JSON Schema the model sees. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly staticParameters: readonly {
    readonly name: string;
    readonly type: string;
    readonly default?: unknown;
    readonly required: boolean;
  }[];
  /** `defaults` as written (the transforms). */
  readonly transforms: Readonly<Record<string, unknown>>;
  readonly handler: Readonly<Record<string, unknown>>;
  readonly speech: Readonly<Record<string, unknown>>;
  readonly sideEffects: string;
  readonly warnings: readonly IssueView[];
}

/** A definition problem or warning. */
export interface IssueView {
  readonly code: string;
  readonly severity: string;
  readonly path: string;
  readonly message: string;
  readonly file?: string;
}

/** A declared answer of the page's HTTP double. */
export interface DoubleExchange {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** The response body as text (JSON when it parses). */
  readonly body: string;
}

/** The live conversation, pushed to the page on every change. */
export interface StudioState {
  readonly toolsFile: string;
  readonly model: 'manual' | 'openai';
  readonly language: string;
  readonly languages?: readonly string[];
  readonly vars: Readonly<Record<string, unknown>>;
  /** `host`: the page marks speech as played ("mark spoken"); `auto`: it counts when emitted. */
  readonly speechAck: 'host' | 'auto';
  readonly turns: readonly TimelineTurn[];
  /** The manual model's move is awaited: the page shows the model form. */
  readonly awaitingModel: boolean;
  readonly busy: boolean;
  readonly ended: boolean;
  /** `real`: endpoint calls go to their URL; `double`: the page's declared answers. */
  readonly http: 'real' | 'double';
  readonly double: readonly DoubleExchange[];
  /** The host's declared answers to action tools, by tool (a fixture's `actions:`). */
  readonly actions: Readonly<Record<string, unknown>>;
  /** Text streamed so far by the model in the running turn. */
  readonly streaming: string;
  /** What the session warned about when it was created (e.g. a service not configured). */
  readonly warnings: readonly IssueView[];
}

/** An error as the server reports it: a stable code and a message naming what is wrong. */
export interface StudioError {
  readonly code: string;
  readonly message: string;
}

/** One fixture of a fixtures run. */
export interface FixtureRunView {
  readonly file: string;
  readonly name: string;
  readonly status: 'passed' | 'failed' | 'error';
  readonly durationMs: number;
  readonly failures: readonly {
    readonly kind: string;
    readonly turn?: number;
    readonly message: string;
    readonly mismatches: readonly {
      readonly path: string;
      readonly reason: string;
      readonly expected?: unknown;
      readonly actual?: unknown;
    }[];
  }[];
  readonly issues: readonly IssueView[];
  readonly turns: readonly TimelineTurn[];
}

/** `transform --explain` for one call. */
export interface ExplainView {
  readonly ok: boolean;
  readonly args?: Readonly<Record<string, unknown>>;
  readonly withStatic?: Readonly<Record<string, unknown>>;
  readonly code?: string;
  readonly message?: string;
  readonly steps: readonly {
    readonly outcome: string;
    readonly action: string;
    readonly key: string;
    readonly value?: unknown;
    readonly reason?: string;
    readonly detail?: string;
  }[];
}
