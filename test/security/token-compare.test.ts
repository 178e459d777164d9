/**
 * An attacker's afternoon (docs/reliability.md): the bearer token of `serve`, MCP over HTTP and
 * the studio is compared in constant time whatever the length of what a client sends. Before, a
 * length mismatch returned at once, so the time of a refusal told the token's length.
 */
import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';

const compared: [number, number][] = [];
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof crypto>();
  return {
    ...real,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      compared.push([a.byteLength, b.byteLength]);
      return real.timingSafeEqual(a, b);
    },
  };
});
const { bearerMatches, tokenMatches } = await import('../../src/http-guard.js');

describe('token comparison', () => {
  it.each(['', 'x', 'sekret-token-0', 'sekret-token-01', 'sekret-token-01-and-more'])(
    'compares %j with the token in constant time, whatever its length',
    (got) => {
      compared.length = 0;
      expect(tokenMatches(got, 'sekret-token-01')).toBe(got === 'sekret-token-01');
      expect(bearerMatches(`Bearer ${got}x`, 'sekret-token-01')).toBe(false);
      // Both comparisons ran over equal lengths that do not depend on what was sent.
      expect(compared).toHaveLength(2);
      expect(new Set(compared.flat())).toEqual(new Set([compared[0]![0]]));
    },
  );
});
