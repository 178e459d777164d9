/**
 * Cheap per-turn views of a live session's state, so a turn's cost does not grow with its
 * history:
 *
 * - {@link StateSnapshots.capture} records the state at the end of a turn in O(1) (history is
 *   append-only, so its length is enough; the vars object is shared and copied on the next write)
 *   and builds the plain-JSON {@link SessionState} only when someone reads `TurnResult.state`.
 * - {@link ModelMessages} keeps the array of messages the model sees (system messages, then the
 *   history) up to date by appending, instead of copying the whole history every round.
 *
 * Whoever rewrites a history entry in place (the realtime link patches late transcripts) must go
 * through {@link StateSnapshots.replaceHistoryMessage}, so both views stay exact.
 */
import type { ChatMessage } from '../models/types.js';
import { snapshotWorkflows } from './workflow/state.js';
import { plainState, type LiveState, type StateFields } from './session-state.js';
import type { SessionState } from './types.js';

/** The lazy snapshots of one live session. */
export class StateSnapshots {
  /** The last capture not yet read: built before anything it shares is rewritten. */
  #pending: StateCapture | undefined;
  /** The current vars object is shared with a capture: copy it before the next write. */
  #varsShared = false;
  /** Bumped when a history entry is replaced in place (not appended). */
  revision = 0;
  /**
   * How many leading history messages are unchanged since the session was last loaded from or
   * saved to its store (a store with coordination then writes only the rest).
   */
  storedPrefix = 0;

  /** The state as it is now, in O(1); {@link StateCapture.read} builds it (once). */
  capture(state: LiveState): StateCapture {
    // Empty vars (most sessions) are captured as a shared empty object: nothing to copy later.
    const vars = hasOwnKeys(state.vars) ? state.vars : NO_VARS;
    if (vars !== NO_VARS) this.#varsShared = true;
    const capture = new StateCapture(this, state, vars);
    this.#pending = capture;
    return capture;
  }

  /** For {@link StateCapture}: it was built and no longer shares anything live. */
  built(capture: StateCapture): void {
    if (this.#pending === capture) this.#pending = undefined;
  }

  /**
   * Call before a turn changes anything: gives the session a vars object of its own when the last
   * capture shares the current one (a shallow copy: values are replaced, never mutated).
   */
  beforeTurn(state: LiveState): void {
    if (!this.#varsShared) return;
    this.#varsShared = false;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(state.vars)) {
      Object.defineProperty(copy, key, {
        value: state.vars[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    state.vars = copy;
  }

  /** Replaces history entry `index` (the only sanctioned in-place rewrite of history). */
  replaceHistoryMessage(state: LiveState, index: number, message: ChatMessage): void {
    this.#pending?.read();
    state.history[index] = message;
    this.revision++;
    this.storedPrefix = Math.min(this.storedPrefix, index);
  }
}

const NO_VARS: Readonly<Record<string, unknown>> = Object.freeze({});

function hasOwnKeys(object: Readonly<Record<string, unknown>>): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}

/**
 * The state at the end of one turn, in O(1): history is append-only, so its length is enough, and
 * the vars object is shared until the session's next write copies it. A class, not a closure: one
 * is made every turn, and a closure with its context was twice the size.
 */
export class StateCapture implements StateFields {
  readonly #snapshots: StateSnapshots;
  readonly history: readonly ChatMessage[];
  readonly #length: number;
  readonly id: string;
  readonly language: string;
  readonly agent: string | undefined;
  readonly turns: number;
  readonly ended: boolean;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly #workflows: SessionState['workflows'];
  #built: SessionState | undefined;

  constructor(
    snapshots: StateSnapshots,
    state: LiveState,
    vars: Readonly<Record<string, unknown>>,
  ) {
    this.#snapshots = snapshots;
    this.history = state.history;
    this.#length = state.history.length;
    this.id = state.id;
    this.language = state.language;
    this.agent = state.agent;
    this.turns = state.turns;
    this.ended = state.ended;
    this.vars = vars;
    this.#workflows = state.workflows.size === 0 ? undefined : snapshotWorkflows(state.workflows);
  }

  /** The plain-JSON state, built on the first call (then the same object). O(history + vars) once. */
  read(): SessionState {
    if (this.#built === undefined) {
      this.#built = plainState(this, this.#length, this.#workflows);
      this.#snapshots.built(this);
    }
    return this.#built;
  }
}

/**
 * The messages of the next model call: the system messages, then the whole history, kept in one
 * array that grows by appending (without system messages, the history array itself). The array
 * passed to a model is valid for that call only (the session updates it for the next one); a
 * model that keeps requests must copy them.
 */
export class ModelMessages {
  #messages: ChatMessage[] = [];
  #head = 0;
  #synced = 0;
  #history: readonly ChatMessage[] | undefined;
  #revision = -1;

  /** The messages for a model call: `head` (system messages) followed by `history`. */
  view(
    head: readonly ChatMessage[],
    history: readonly ChatMessage[],
    revision: number,
  ): readonly ChatMessage[] {
    if (head.length === 0) {
      // No system messages (no prompt): the history itself, read-only, and no second array of it.
      // The next call with system messages rebuilds (the array kept so far is dropped, once).
      if (this.#history !== undefined) {
        this.#messages = [];
        this.#history = undefined;
      }
      return history;
    }
    const messages = this.#messages;
    if (history !== this.#history || revision !== this.#revision || this.#synced > history.length) {
      // First call, or history rewritten in place: rebuild once.
      this.#messages = [...head, ...history];
      this.#head = head.length;
      this.#synced = history.length;
      this.#history = history;
      this.#revision = revision;
      return this.#messages;
    }
    if (head.length === this.#head) {
      // Same number of system messages (the usual case): replace them in place, O(head).
      for (let i = 0; i < head.length; i++) messages[i] = head[i] as ChatMessage;
    } else {
      messages.splice(0, this.#head, ...head);
      this.#head = head.length;
    }
    for (let i = this.#synced; i < history.length; i++) messages.push(history[i] as ChatMessage);
    this.#synced = history.length;
    return messages;
  }
}
