/**
 * A deadline on every command the Redis store sends. A Redis that stops answering without closing
 * the connection (a frozen process, a network path that drops packets, a `DEBUG SLEEP`) kept a
 * turn waiting for ever: node-redis's own per-command timeout only covers the wait before the
 * command is written, and is off anyway (docs/sessions-redis.md). One timer per store watches the
 * oldest unanswered command, instead of a timer per command (whose garbage was most of the
 * worker's GC work at load, docs/load.md).
 */

/** The error a command without an answer in time rejects with (the store error's `cause`). */
export class RedisNoAnswerError extends Error {
  override readonly name = 'RedisNoAnswerError';
  readonly code = 'redis_no_answer';
  constructor(readonly timeoutMs: number) {
    super(
      `no answer from Redis within ${timeoutMs} ms (the command may still run when Redis answers)`,
    );
  }
}

interface Waiting {
  readonly at: number;
  /** Dropped once answered: it holds the caller's promise, and so the reply, until then. */
  reject: ((err: Error) => void) | undefined;
  done: boolean;
}

/** Tracks commands in the order they were sent; rejects those unanswered after `timeoutMs`. */
export class CommandDeadline {
  readonly #timeoutMs: number;
  readonly #now: () => number;
  /** Oldest first; answered entries are dropped when they reach the head. */
  #waiting: Waiting[] = [];
  #head = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: { readonly timeoutMs: number; readonly now?: () => number }) {
    this.#timeoutMs = options.timeoutMs;
    this.#now = options.now ?? Date.now;
  }

  /** `command`'s result, or a {@link RedisNoAnswerError} once it is `timeoutMs` old. */
  track<T>(command: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting = { at: this.#now(), reject, done: false };
      this.#waiting.push(entry);
      this.#arm();
      command.then(
        (value) => {
          this.#answered(entry);
          resolve(value);
        },
        (err: unknown) => {
          this.#answered(entry);
          reject(err);
        },
      );
    });
  }

  /** How many commands are unanswered (tests, and the store's close). */
  get pending(): number {
    this.#dropAnswered();
    // Answered commands behind an unanswered one stay queued; they are not pending.
    let n = 0;
    for (let i = this.#head; i < this.#waiting.length; i++) if (!this.#waiting[i]!.done) n++;
    return n;
  }

  // An answered entry kept its reply reachable (through `reject`'s promise) until the timer
  // next fired, up to `timeoutMs` later: at a few thousand commands a second, megabytes of
  // snapshots held after the sessions were gone. It now lets go at once, and leaves the queue
  // as soon as the commands before it are answered.
  #answered(entry: Waiting): void {
    entry.done = true;
    entry.reject = undefined;
    this.#dropAnswered();
  }

  #dropAnswered(): void {
    while (this.#head < this.#waiting.length && this.#waiting[this.#head]!.done) this.#head++;
    // Compact now and then, so the array does not grow with every command ever sent.
    if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
      this.#waiting = this.#waiting.slice(this.#head);
      this.#head = 0;
    }
  }

  #arm(): void {
    if (this.#timer !== undefined) return;
    this.#dropAnswered();
    const oldest = this.#waiting[this.#head];
    if (oldest === undefined) return;
    const wait = Math.max(0, oldest.at + this.#timeoutMs - this.#now());
    this.#timer = setTimeout(() => this.#check(), wait);
    // A waiting caller keeps the process alive, not this watch.
    this.#timer.unref();
  }

  #check(): void {
    this.#timer = undefined;
    const due = this.#now() - this.#timeoutMs;
    for (let i = this.#head; i < this.#waiting.length; i++) {
      const entry = this.#waiting[i]!;
      if (entry.done) continue;
      if (entry.at > due) break;
      const reject = entry.reject;
      entry.done = true;
      entry.reject = undefined;
      reject?.(new RedisNoAnswerError(this.#timeoutMs));
    }
    this.#arm();
  }
}
