/**
 * The calls in flight of one owner, as an intrusive list its members join and leave without
 * allocating, so closing the owner can cancel them all.
 */

/** A member of a {@link DeadlineGroup}: its links in the group's list. */
export interface GroupMember {
  groupPrev: GroupMember | undefined;
  groupNext: GroupMember | undefined;
  cancel(): void;
}

/**
 * The calls in flight of one owner (an endpoint handler), so closing it can end them all. An
 * intrusive list, as {@link SignalWatch} is: a call joins and leaves it without allocating.
 */
export class DeadlineGroup {
  #head: GroupMember | undefined;

  add(deadline: GroupMember): void {
    deadline.groupNext = this.#head;
    if (this.#head !== undefined) this.#head.groupPrev = deadline;
    this.#head = deadline;
  }

  remove(deadline: GroupMember): void {
    const { groupPrev: prev, groupNext: next } = deadline;
    if (prev === undefined) {
      if (this.#head !== deadline) return;
      this.#head = next;
    } else prev.groupNext = next;
    if (next !== undefined) next.groupPrev = prev;
    deadline.groupPrev = undefined;
    deadline.groupNext = undefined;
  }

  /** Ends every call in flight as cancelled (the owner is closing). */
  cancelAll(): void {
    for (let d = this.#head; d !== undefined; d = this.#head) {
      this.remove(d);
      d.cancel();
    }
  }
}
