/**
 * The bounded memories of a Realtime call: RecentIds (response and call ids) and rememberLatest
 * (caller transcripts and transcript patches waiting for their turn, 32 each).
 */
import { describe, expect, it } from 'vitest';
import { RecentIds, rememberLatest } from '../../src/realtime/recent-ids.js';

describe('RecentIds', () => {
  it('keeps exactly its cap, forgetting the oldest first', () => {
    const ids = new RecentIds<number>(3);
    for (let i = 0; i < 3; i++) ids.add(`id_${i}`, i);
    expect(ids.size).toBe(3);
    ids.add('id_3', 3);
    expect(ids.size).toBe(3);
    expect(ids.has('id_0')).toBe(false);
    expect(ids.has('id_1')).toBe(true);
  });

  it('a known id keeps its first value and its place', () => {
    const ids = new RecentIds<string>(2);
    ids.add('call_1', 'resp_1');
    ids.add('call_2', 'resp_2');
    // The restored history names call_1 again: it is still resp_1's.
    ids.add('call_1', '');
    expect(ids.get('call_1')).toBe('resp_1');
    ids.add('call_3', 'resp_3');
    expect(ids.has('call_1')).toBe(false);
    expect(ids.get('call_2')).toBe('resp_2');
  });
});

describe('rememberLatest', () => {
  it('keeps exactly max entries, dropping the oldest', () => {
    const map = new Map<string, string>();
    for (let i = 0; i < 32; i++) rememberLatest(map, `item_${i}`, `text ${i}`, 32);
    expect(map.size).toBe(32);
    rememberLatest(map, 'item_32', 'text 32', 32);
    expect(map.size).toBe(32);
    expect(map.has('item_0')).toBe(false);
    expect(map.get('item_32')).toBe('text 32');
  });
});
