/**
 * The speech ledger's waits and the barge-in lock, unit by unit: what a speak-then-act call and
 * `interrupt()` rely on, including the cases a whole session reaches only by timing.
 */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BargeInLock } from '../../../src/session/voice/barge-in-lock.js';
import { SpeechLedger } from '../../../src/session/voice/speech-ledger.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A host-mode ledger with `n` utterances opened in this turn. */
function ledgerWith(n: number): { ledger: SpeechLedger; ids: string[] } {
  const ledger = new SpeechLedger('host');
  ledger.beginTurn();
  return { ledger, ids: Array.from({ length: n }, () => ledger.open()) };
}

/** The outcome once settled, or 'waiting'. */
async function state<T>(p: Promise<T>): Promise<T | 'waiting'> {
  return Promise.race([p, Promise.resolve().then(() => 'waiting' as const)]);
}

describe('SpeechLedger.waitFor', () => {
  it('waits for every utterance it names, not the first one played', async () => {
    const { ledger, ids } = ledgerWith(2);
    const wait = ledger.waitFor(ids, 5_000, new AbortController().signal);
    ledger.spoken(ids[0]!);
    expect(await state(wait)).toBe('waiting');
    ledger.spoken(ids[1]!);
    expect(await wait).toBe('spoken');
  });

  it('ends interrupted at once when the signal has already aborted', async () => {
    const { ledger, ids } = ledgerWith(1);
    const controller = new AbortController();
    controller.abort();
    expect(await state(ledger.waitFor(ids, 5_000, controller.signal))).toBe('interrupted');
  });

  it('ends interrupted when the signal aborts, and timeout after maxWaitMs', async () => {
    const { ledger, ids } = ledgerWith(1);
    const controller = new AbortController();
    const interrupted = ledger.waitFor(ids, 5_000, controller.signal);
    controller.abort();
    expect(await interrupted).toBe('interrupted');
    const timedOut = ledger.waitFor(ids, 5_000, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await state(timedOut)).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1);
    expect(await timedOut).toBe('timeout');
  });

  it('leaves no listener on the signal and no timer, however it ends', async () => {
    const { ledger, ids } = ledgerWith(3);
    const signal = new AbortController().signal;
    const spoken = ledger.waitFor([ids[0]!], 5_000, signal);
    ledger.spoken(ids[0]!);
    await spoken;
    const timedOut = ledger.waitFor([ids[1]!], 10, signal);
    await vi.advanceTimersByTimeAsync(10);
    await timedOut;
    const controller = new AbortController();
    const interrupted = ledger.waitFor([ids[2]!], 5_000, controller.signal);
    controller.abort();
    await interrupted;
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('BargeInLock', () => {
  it('stays locked while any hold is taken, and a release counts once', () => {
    const lock = new BargeInLock();
    expect(lock.locked).toBe(false);
    const first = lock.hold();
    const second = lock.hold();
    first();
    first();
    expect(lock.locked).toBe(true);
    second();
    expect(lock.locked).toBe(false);
  });
});
