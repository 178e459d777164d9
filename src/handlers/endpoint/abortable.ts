/**
 * Something a call can be aborted through, and waiting under one: a sleep that ends early and a
 * promise that stops being awaited when it aborts.
 */

/** Something that can be aborted once and told about it. */
export interface Abortable {
  readonly aborted: boolean;
  /** Calls `listener` once on abort (at once if already aborted); returns an unsubscribe. */
  onAbort(listener: () => void): () => void;
}

/** Waits `ms` unless `abortable` aborts first (resolves either way; the caller checks it). */
export function abortableSleep(ms: number, abortable: Abortable): Promise<void> {
  return new Promise((resolve) => {
    const off = abortable.onAbort(() => {
      clearTimeout(timer);
      resolve();
    });
    const timer = setTimeout(() => {
      off();
      resolve();
    }, ms);
  });
}

/** Resolves with the promise's value, or undefined as soon as `abortable` aborts. */
export function untilAborted<T>(promise: Promise<T>, abortable: Abortable): Promise<T | undefined> {
  if (abortable.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const off = abortable.onAbort(() => resolve(undefined));
    promise.then(
      (v) => {
        off();
        resolve(v);
      },
      (e: unknown) => {
        off();
        reject(e instanceof Error ? e : new Error('failed'));
      },
    );
  });
}
