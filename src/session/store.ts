/**
 * Session stores. {@link InMemorySessionStore} keeps copies of states in a Map (nothing the caller
 * holds is shared with the store, in either direction). Other stores (Redis, SQL) implement the
 * same three methods and must pass test/session/store.contract.ts.
 */
import type { SessionState, SessionStore } from './types.js';

/** A process-local store, for tests and single-process hosts. */
export class InMemorySessionStore implements SessionStore {
  readonly #states = new Map<string, string>();

  async get(id: string): Promise<SessionState | undefined> {
    const text = this.#states.get(id);
    return text === undefined ? undefined : (JSON.parse(text) as SessionState);
  }

  async set(state: SessionState): Promise<void> {
    if (typeof state.id !== 'string') throw new TypeError('session state needs a string id');
    this.#states.set(state.id, JSON.stringify(state));
  }

  async delete(id: string): Promise<void> {
    this.#states.delete(id);
  }

  /** Number of stored sessions. */
  get size(): number {
    return this.#states.size;
  }
}
