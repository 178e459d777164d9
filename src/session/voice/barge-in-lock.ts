/**
 * The barge-in lock (`options.speech.interruptible: false`, docs/voice.md): while a call of such a
 * tool is pending — waiting for the speech before it, or running — `session.interrupt()` is
 * refused. One counter per session; every hold is released exactly once.
 */
export class BargeInLock {
  #holds = 0;

  /** True while at least one non-interruptible call is pending. */
  get locked(): boolean {
    return this.#holds > 0;
  }

  /** Takes a hold; the returned function releases it (later calls do nothing). */
  hold(): () => void {
    this.#holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
    };
  }
}
