/**
 * The most recent ids a Realtime server sent (response ids, call ids), each with a value, kept
 * in arrival order up to a fixed count: the oldest is forgotten first, so a session that lives
 * for hours keeps bounded memory while a replay of anything recent is still recognised.
 */
export class RecentIds<V> {
  readonly #max: number;
  readonly #ids = new Map<string, V>();

  /** Keeps at most `max` ids. */
  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#ids.size;
  }

  get(id: string): V | undefined {
    return this.#ids.get(id);
  }

  has(id: string): boolean {
    return this.#ids.has(id);
  }

  /** Remembers `id` (a known id keeps its place and value), forgetting the oldest past the cap. */
  add(id: string, value: V): void {
    if (this.#ids.has(id)) return;
    this.#ids.set(id, value);
    if (this.#ids.size > this.#max) {
      const oldest = this.#ids.keys().next();
      if (oldest.done !== true) this.#ids.delete(oldest.value);
    }
  }
}

/** Sets `key` in `map`, dropping the oldest entry past `max` entries. */
export function rememberLatest<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.set(key, value);
  if (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
}
