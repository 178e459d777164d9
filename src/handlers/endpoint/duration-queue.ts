/**
 * The timer queues of running deadlines: one FIFO ring and one Node timer per duration in use.
 */

/** What a {@link DurationQueue} holds: a deadline's due time, whether it still waits, its expiry. */
export interface QueuedDeadline {
  /** Monotonic time (`performance.now()`) when the deadline passes. */
  readonly due: number;
  /** True while it waits in its duration's queue. */
  readonly queued: boolean;
  /** Its time has come (called by its queue, which has already let go of it). */
  expire(): void;
}

/**
 * The timers of every running deadline of one duration. Deadlines of the same duration expire in
 * the order they start, so they wait in a FIFO queue under one Node timer armed for the oldest
 * live one: starting a deadline is a push and ending it a flag, where a timer per call cost an
 * insertion into, and a removal from, Node's timer lists (a measurable share of a loopback call).
 * Ended deadlines leave the queue lazily; the queue is compacted when they outnumber live ones.
 */
export class DurationQueue {
  readonly #ms: number;
  // A ring buffer (capacity a power of two): a queue that empties between calls, as at
  // concurrency 1, keeps its storage instead of freeing and growing it again on every call.
  #ring: Array<QueuedDeadline | undefined> = new Array<QueuedDeadline | undefined>(16);
  #head = 0;
  #size = 0;
  #live = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  // The timer functions the timer was armed with: a test that installs fake timers brings new ones.
  #armedWith: typeof setTimeout | undefined;
  #clearWith: typeof clearTimeout = clearTimeout;
  // The `due` the timer was armed for: when it fires, that time has come, whatever the clock says.
  #armedFor = 0;

  constructor(ms: number) {
    this.#ms = ms;
  }

  add(deadline: QueuedDeadline): void {
    if (this.#size === this.#ring.length) this.#resize(this.#ring.length * 2, false);
    this.#ring[(this.#head + this.#size) & (this.#ring.length - 1)] = deadline;
    this.#size++;
    this.#live++;
    if (this.#timer === undefined || this.#armedWith !== setTimeout) {
      // For the oldest live deadline: the new one unless a timer of other functions held older ones.
      const head = this.#first() as QueuedDeadline;
      this.#arm(
        head.due,
        head === deadline ? this.#ms : Math.max(1, Math.ceil(head.due - deadline.due + this.#ms)),
      );
    } else if (this.#live === 1) {
      this.#timer.ref();
    }
  }

  /** `deadline` (queued) ended: it no longer holds the process open or its place in the queue. */
  remove(): void {
    this.#live--;
    // An idle timer stays armed, unreferenced (a call every few ms must not re-arm one each time);
    // when it fires with nothing live it is dropped.
    if (this.#live === 0) this.#timer?.unref();
    while (this.#size > 0 && !(this.#first() as QueuedDeadline).queued) this.#shift();
    // A long call at the head holds ended ones behind it: keep only the live ones.
    if (this.#size > 2 * this.#live + 64) this.#resize(this.#ring.length, true);
  }

  /** The oldest deadline in the ring (ended or not), if any. */
  #first(): QueuedDeadline | undefined {
    return this.#size === 0 ? undefined : this.#ring[this.#head];
  }

  #shift(): void {
    this.#ring[this.#head] = undefined;
    this.#head = (this.#head + 1) & (this.#ring.length - 1);
    this.#size--;
  }

  /** Copies the ring, in order, into one of `capacity` slots; `liveOnly` leaves ended ones out. */
  #resize(capacity: number, liveOnly: boolean): void {
    const old = this.#ring;
    const ring = new Array<QueuedDeadline | undefined>(capacity);
    let n = 0;
    for (let i = 0; i < this.#size; i++) {
      const d = old[(this.#head + i) & (old.length - 1)] as QueuedDeadline;
      if (!liveOnly || d.queued) ring[n++] = d;
    }
    this.#ring = ring;
    this.#head = 0;
    this.#size = n;
  }

  #arm(due: number, delay: number): void {
    if (this.#timer !== undefined) this.#clearWith(this.#timer);
    this.#armedFor = due;
    this.#armedWith = setTimeout;
    this.#clearWith = clearTimeout;
    const timer = setTimeout(() => {
      if (this.#timer === timer) this.#expire();
    }, delay);
    this.#timer = timer;
    if (this.#live === 0) timer.unref();
  }

  /** Expires every due deadline, then re-arms for the next live one (or drops the queue). */
  #expire(): void {
    this.#timer = undefined;
    // The timer's word counts: Node may fire it a little before the monotonic clock reaches
    // `due` (as a timer per call did), and fake timers may not move `performance.now()` at all.
    const now = Math.max(performance.now(), this.#armedFor);
    for (let deadline = this.#first(); deadline !== undefined; deadline = this.#first()) {
      if (deadline.queued && deadline.due > now) break;
      this.#shift();
      if (deadline.queued) deadline.expire();
    }
    // Ended ones a listener above left at the head go too.
    while (this.#size > 0 && !(this.#first() as QueuedDeadline).queued) this.#shift();
    const next = this.#first();
    if (this.#live > 0 && next !== undefined) {
      // (Re)armed for the oldest live deadline, even if a listener above started a new one.
      this.#arm(next.due, Math.max(1, Math.ceil(next.due - now)));
      return;
    }
    this.#ring = new Array<QueuedDeadline | undefined>(16);
    this.#head = 0;
    this.#size = 0;
    if (queues.get(this.#ms) === this) queues.delete(this.#ms);
  }
}

/** The queue of each duration in use (dropped when its timer fires with nothing live). */
const queues = new Map<number, DurationQueue>();

export function queueFor(ms: number): DurationQueue {
  let queue = queues.get(ms);
  if (queue === undefined) {
    queue = new DurationQueue(ms);
    queues.set(ms, queue);
  }
  return queue;
}
