// The tool message reuses an endpoint's JSON text only when it is exactly what JSON.stringify makes.
import { describe, expect, it } from 'vitest';
import { interpretResponse } from '../../src/handlers/endpoint/interpret-response.js';
import { jsonTextOf } from '../../src/handlers/json-text.js';

function output(text: string): unknown {
  const r = interpretResponse({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(text),
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.output;
}

describe('JSON text of an endpoint output', () => {
  it('is the body as received when it is canonical (duplicate keys show it is not re-serialised)', () => {
    expect(jsonTextOf(output('{"a":1,"b":[true,null,"x"],"c":{"d":-2.5}}'))).toBe(
      '{"a":1,"b":[true,null,"x"],"c":{"d":-2.5}}',
    );
    expect(jsonTextOf(output('{"a":1,"a":2}'))).toBe('{"a":1,"a":2}');
  });

  it('is JSON.stringify of the value whenever the text could serialise differently', () => {
    expect(jsonTextOf(output('{ "a": 1 }'))).toBe('{"a":1}');
    expect(jsonTextOf(output('{"p":1.50,"q":1.0}'))).toBe('{"p":1.5,"q":1}');
    expect(jsonTextOf(output('{"e":1E3}'))).toBe('{"e":1000}');
    expect(jsonTextOf(output('{"s":"caf\\u00e9"}'))).toBe('{"s":"café"}');
    expect(jsonTextOf(output('{"big":12345678901234567890}'))).toBe(
      JSON.stringify({ big: 12345678901234567890 }),
    );
  });

  it('is never the text for a copied or re-shaped value, nor for primitives', () => {
    const parsed = output('{"a":1,"a":2}') as Record<string, unknown>;
    expect(jsonTextOf({ ...parsed })).toBe('{"a":2}');
    expect(jsonTextOf(output('"text"'))).toBe('"text"');
    expect(jsonTextOf(output('12'))).toBe('12');
  });
});
