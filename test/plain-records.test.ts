import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { emptyList, plainRecord } from '../src/plain-records.js';

interface Timing {
  readonly callId: string;
  readonly durationMs: number;
  readonly errorCode?: string;
  readonly queuedMs: number;
}

const TimingRecord = plainRecord<Timing, [callId: string, durationMs: number, errorCode?: string]>(
  function (callId, durationMs, errorCode) {
    this.callId = callId;
    this.durationMs = durationMs;
    if (errorCode !== undefined) this.errorCode = errorCode;
    this.queuedMs = 0;
  },
);

describe('plainRecord (records made without an allocation site)', () => {
  it('makes objects a host cannot tell from a literal', () => {
    const made = new TimingRecord('c1', 12, 'timeout');
    const literal = { callId: 'c1', durationMs: 12, errorCode: 'timeout', queuedMs: 0 };
    expect(Object.getPrototypeOf(made)).toBe(Object.prototype);
    expect(made.constructor).toBe(Object);
    expect(made).toStrictEqual(literal);
    expect(Object.keys(made)).toEqual(Object.keys(literal));
    expect(JSON.stringify(made)).toBe(JSON.stringify(literal));
    expect(inspect(made)).toBe(inspect(literal));
    expect(structuredClone(made)).toStrictEqual(literal);
    expect({ ...made }).toStrictEqual(literal);
  });

  it('leaves optional keys out when absent, keeping the others in order', () => {
    const made = new TimingRecord('c2', 3);
    expect(Object.keys(made)).toEqual(['callId', 'durationMs', 'queuedMs']);
    expect('errorCode' in made).toBe(false);
  });

  it('makes writable, enumerable own data properties', () => {
    const made = new TimingRecord('c3', 1) as { -readonly [K in keyof Timing]: Timing[K] };
    made.durationMs = 5;
    expect(made.durationMs).toBe(5);
    expect(Object.getOwnPropertyDescriptor(made, 'callId')).toEqual({
      value: 'c3',
      writable: true,
      enumerable: true,
      configurable: true,
    });
  });

  it('lists are plain arrays', () => {
    const empty = emptyList<number>();
    expect(Array.isArray(empty)).toBe(true);
    expect(empty).toStrictEqual([]);
    empty.push(1);
    expect(empty).toEqual([1]);
    expect(emptyList()).not.toBe(emptyList());
  });
});
