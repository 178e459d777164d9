import { describe, expect, it } from 'vitest';
import { compileDefaults } from '../../src/transform/compile-defaults.js';

describe('smoke', () => {
  it('dotted keys', () => {
    const { compiled, issues } = compileDefaults({ 'tags.hospital': '{vars.hospital}', 'tags.foo': '{params.foo}', foo: '@remove' });
    expect(issues).toEqual([]);
    const out = compiled.apply({ foo: 'bar' }, { vars: { 'vars.hospital': 'Queens Hospital' } });
    expect(out).toMatchObject({ ok: true, args: { tags: { hospital: 'Queens Hospital', foo: 'bar' } } });
  });
});
