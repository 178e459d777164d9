/**
 * test/yield-between-tests.ts: the event loop turns between two synchronous tests, so vitest's
 * RPC answers are read (see that file for why a run failed without it).
 */
import { describe, expect, it } from 'vitest';

describe('between two synchronous tests', () => {
  let turned = false;
  it('the first schedules work for the next turn of the event loop', () => {
    setImmediate(() => (turned = true));
    expect(turned).toBe(false);
  });
  it('the second sees that the loop turned', () => {
    expect(turned).toBe(true);
  });
});
