/**
 * Conditions' truthiness (docs/workflows.md, "Conditions are evaluated with JMESPath truthiness"):
 * `false`, `null`, `""`, `[]` and `{}` are false, as is a missing value; everything else is true,
 * `0` and `"false"` included. `isTruthy` is public (`switchboard/transform`).
 */
import { describe, expect, it } from 'vitest';
import { isTruthy } from '../../src/entries/transform.js';

describe('isTruthy', () => {
  it.each([[false], [null], [''], [[]], [{}], [undefined]])('%j is false', (value) => {
    expect(isTruthy(value)).toBe(false);
  });
  it.each([[true], [0], [-1], ['0'], ['false'], [' '], [[0]], [[null]], [{ a: null }]])(
    '%j is true',
    (value) => {
      expect(isTruthy(value)).toBe(true);
    },
  );
});
