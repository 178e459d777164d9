import { describe, expect, it } from 'vitest';
import { append } from '../../src/small-arrays.js';

describe('append (short per-turn lists)', () => {
  it('keeps every item in order, whatever the length', () => {
    let list: number[] = [];
    const seen: number[][] = [];
    for (let i = 0; i < 5; i++) {
      list = append(list, i);
      seen.push([...list]);
    }
    expect(seen).toEqual([[0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3, 4]]);
  });

  it('makes new lists for the first two items and grows the list itself from the third', () => {
    const empty: string[] = [];
    const one = append(empty, 'a');
    expect(one).not.toBe(empty);
    expect(empty).toEqual([]);
    const two = append(one, 'b');
    expect(two).not.toBe(one);
    expect(one).toEqual(['a']);
    const three = append(two, 'c');
    expect(three).toBe(two);
  });
});
