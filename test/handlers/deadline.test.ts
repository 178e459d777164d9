/**
 * Call deadlines share one Node timer per duration (src/handlers/endpoint/deadline.ts): each
 * still fires on time, in order, never after it was disposed; a deadline nobody waits on no longer
 * holds the process open; fake timers drive them like any timer.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getEventListeners } from 'node:events';
import {
  DeadlineGroup,
  NEVER_ABORTED,
  onSignalAbort,
  startDeadline,
  type Deadline,
} from '../../src/handlers/endpoint/deadline.js';
import { buildOnce } from '../cli/build.js';

const run = promisify(execFile);
const NEVER = new AbortController().signal;

/**
 * The least time a deadline of `ms` can be measured to take from a sub-millisecond clock: its
 * start is read from `Date.now()` (whole milliseconds, up to 1 ms behind) and Node's timers run on
 * the loop's whole-millisecond clock (up to 1 ms more), so it may fire up to 2 ms early as seen
 * from `performance.now()`, never more.
 */
const onTime = (ms: number): number => ms - 2;

function firedAt(deadline: Deadline, started: number): Promise<number> {
  return new Promise((resolve) => deadline.onAbort(() => resolve(performance.now() - started)));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('deadlines of one duration', () => {
  it('each fires at its own time, in the order they started; a disposed one never fires', async () => {
    const t0 = performance.now();
    const first = startDeadline(60, NEVER, Date.now());
    const firstAt = firedAt(first, t0);
    await new Promise((r) => setTimeout(r, 20));
    const second = startDeadline(60, NEVER, Date.now());
    let secondFired = false;
    second.onAbort(() => {
      secondFired = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    const t2 = performance.now();
    const third = startDeadline(60, NEVER, Date.now());
    const thirdAt = firedAt(third, t2);
    second.dispose();
    expect(await firstAt).toBeGreaterThanOrEqual(onTime(60));
    expect(third.aborted).toBe(false);
    expect(await thirdAt).toBeGreaterThanOrEqual(onTime(60));
    expect(secondFired).toBe(false);
    expect(second.aborted).toBe(false);
    expect(third.cancelled()).toBe(false);
    first.dispose();
    third.dispose();
  });

  it('a long call at the head still fires on time behind thousands that ended', async () => {
    const t0 = performance.now();
    const stuck = startDeadline(80, NEVER, Date.now());
    const stuckAt = firedAt(stuck, t0);
    for (let i = 0; i < 5000; i++) startDeadline(80, NEVER, Date.now()).dispose();
    const late = startDeadline(80, NEVER, Date.now());
    const lateAt = firedAt(late, performance.now());
    expect(await stuckAt).toBeGreaterThanOrEqual(onTime(80));
    expect(late.aborted).toBe(false);
    expect(await lateAt).toBeGreaterThanOrEqual(onTime(80));
    stuck.dispose();
    late.dispose();
  });

  it("the caller's signal ends it at once, as cancelled; other deadlines keep their time", async () => {
    const caller = new AbortController();
    const mine = startDeadline(1000, caller.signal, Date.now());
    const other = startDeadline(1000, NEVER, Date.now());
    caller.abort();
    expect(mine.aborted).toBe(true);
    expect(mine.cancelled()).toBe(true);
    expect(other.aborted).toBe(false);
    mine.dispose();
    other.dispose();
  });

  it('follows fake timers installed after real ones were used', () => {
    startDeadline(1000, NEVER, Date.now()).dispose(); // leaves a real timer armed, idle
    vi.useFakeTimers();
    const deadline = startDeadline(1000, NEVER, Date.now());
    vi.advanceTimersByTime(999);
    expect(deadline.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.aborted).toBe(true);
    expect(deadline.cancelled()).toBe(false);
    deadline.dispose();
  });
});

describe('many deadlines at once', () => {
  it('more than the queue first holds each fire in order, the disposed ones never', () => {
    vi.useFakeTimers();
    // Started 1 ms apart, 40 of them (the queue starts with room for 16 and grows), every third
    // disposed at once: the others fire one by one, each at its own time.
    const fired: number[] = [];
    const all: Deadline[] = [];
    for (let i = 0; i < 40; i++) {
      const d = startDeadline(3000, NEVER, Date.now());
      const n = i;
      d.onAbort(() => fired.push(n));
      all.push(d);
      vi.advanceTimersByTime(1);
    }
    for (let i = 0; i < 40; i += 3) all[i]?.dispose();
    vi.advanceTimersByTime(3000 - 40 + 2);
    expect(fired).toEqual([1, 2]);
    vi.advanceTimersByTime(40);
    expect(fired).toEqual([...Array(40).keys()].filter((i) => i % 3 !== 0));
    for (const d of all) d.dispose();
  });
});

describe('a caller signal shared by many waiters', () => {
  it('tells each once; one removed by an earlier one is not told; unsubscribed ones never', () => {
    const caller = new AbortController();
    const told: string[] = [];
    const deadline = startDeadline(60_000, caller.signal, Date.now());
    deadline.onAbort(() => told.push('deadline'));
    let offB = (): void => undefined;
    const offA = onSignalAbort(caller.signal, () => {
      told.push('a');
      offB();
    });
    offB = onSignalAbort(caller.signal, () => told.push('b'));
    const offC = onSignalAbort(caller.signal, () => told.push('c'));
    offC();
    caller.abort();
    // In the order they joined: a is told before b, and b is gone by its turn.
    expect(told).toEqual(['deadline', 'a']);
    expect(deadline.cancelled()).toBe(true);
    offA();
    deadline.dispose();
  });

  it("a disposed deadline leaves the signal's list: the abort no longer reaches it", () => {
    const caller = new AbortController();
    const d = startDeadline(60_000, caller.signal, Date.now());
    d.dispose();
    caller.abort();
    expect(d.aborted).toBe(false);
  });
});

describe('the never-aborted signal', () => {
  it('is not watched by a deadline (nothing would come), and its deadline still fires', async () => {
    const d = startDeadline(5, NEVER_ABORTED, Date.now());
    expect(getEventListeners(NEVER_ABORTED, 'abort')).toHaveLength(0);
    const caller = new AbortController();
    const other = startDeadline(60_000, caller.signal, Date.now());
    // Another signal is watched: one listener for all its deadlines.
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(1);
    await new Promise<void>((resolve) => d.onAbort(resolve));
    expect(d.aborted).toBe(true);
    expect(d.cancelled()).toBe(false);
    d.dispose();
    other.dispose();
  });
});

describe('a group of deadlines', () => {
  it('cancelAll cancels the ones in flight, not the ones disposed', () => {
    const group = new DeadlineGroup();
    const done = startDeadline(60_000, NEVER, Date.now(), group);
    const a = startDeadline(60_000, NEVER, Date.now(), group);
    const b = startDeadline(60_000, NEVER, Date.now(), group);
    done.dispose();
    group.cancelAll();
    expect([a.cancelled(), b.cancelled(), done.aborted]).toEqual([true, true, false]);
    a.dispose();
    b.dispose();
    group.cancelAll();
    expect(done.aborted).toBe(false);
  });
});

describe('the idle timer', () => {
  it('stays armed after the last deadline ends, then fires once and is dropped', () => {
    vi.useFakeTimers();
    startDeadline(2500, NEVER, Date.now()).dispose();
    startDeadline(2500, NEVER, Date.now()).dispose();
    expect(vi.getTimerCount()).toBe(1);
    vi.runOnlyPendingTimers();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('deadlines under fake timers that leave the clock alone', () => {
  it('fire when the timer fires, though performance.now() has not moved', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const first = startDeadline(1000, NEVER, Date.now());
    const second = startDeadline(1000, NEVER, Date.now());
    vi.advanceTimersByTime(999);
    expect(first.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(first.aborted).toBe(true);
    // Started within the same real millisecond or later: it fires on its own timer.
    vi.advanceTimersByTime(1000);
    expect(second.aborted).toBe(true);
    first.dispose();
    second.dispose();
  });
});

describe('deadlines and the process', () => {
  const script = (body: string): string =>
    `import { startDeadline } from './dist/handlers/endpoint/deadline.js';
     const never = new AbortController().signal;
     ${body}`;

  it('an ended deadline does not keep the process alive', async () => {
    buildOnce();
    // Held open, the process would live 60 s; it is killed (and the test fails) after 4 s.
    const { stdout } = await run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        script(`startDeadline(60_000, never, Date.now()).dispose(); console.log('done');`),
      ],
      { timeout: 4000 },
    );
    expect(stdout.trim()).toBe('done');
  });

  it('a live deadline keeps the process alive until it fires', async () => {
    buildOnce();
    const { stdout } = await run(process.execPath, [
      '--input-type=module',
      '-e',
      script(
        `const d = startDeadline(300, never, Date.now());
         d.onAbort(() => { console.log('fired'); d.dispose(); });`,
      ),
    ]);
    expect(stdout.trim()).toBe('fired');
  });
});
