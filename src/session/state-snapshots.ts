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
import { snapshotWorkflows } from '../workflow/state.js';
import { jsonCopy, type LiveState } from './session-state.js';
import type { SessionState } from './types.js';

/** The lazy snapshots of one live session. */
export class StateSnapshots {
  /** Materialises the last capture not yet read (before anything it shares is rewritten). */
  #pending: (() => SessionState) | undefined;
  /** The current vars object is shared with a capture: copy it before the next write. */
  #varsShared = false;
  /** Bumped when a history entry is replaced in place (not appended). */
  revision = 0;
  /**
   * How many leading history messages are unchanged since the session was last loaded from or
   * saved to its store (a store with coordination then writes only the rest).
   */
  storedPrefix = 0;

  /**
   * The state as it is now, built on first call of the returned function (then cached). O(1)
   * now; O(history + vars) once, when read. Vars are deep-copied (JSON) when read: the engine
   * only ever replaces top-level variables, never mutates their values in place.
   */
  capture(state: LiveState): () => SessionState {
    const { history, id, language, agent, turns, ended } = state;
    const length = history.length;
    const vars = state.vars;
    this.#varsShared = true;
    const workflows = state.workflows.size === 0 ? undefined : snapshotWorkflows(state.workflows);
    let built: SessionState | undefined;
    const read = (): SessionState => {
      if (built === undefined) {
        built = {
          version: 1,
          id,
          language,
          vars: jsonCopy(vars),
          ...(agent === undefined ? {} : { agent }),
          history: history.slice(0, length),
          turns,
          ended,
          ...(workflows === undefined ? {} : { workflows }),
        };
        if (this.#pending === read) this.#pending = undefined;
      }
      return built;
    };
    this.#pending = read;
    return read;
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
    this.#pending?.();
    state.history[index] = message;
    this.revision++;
    this.storedPrefix = Math.min(this.storedPrefix, index);
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
      // The next call with system messages rebuilds.
      this.#messages = [];
      this.#history = undefined;
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
