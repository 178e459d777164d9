// The tool message reuses an endpoint's JSON text only when it is exactly what JSON.stringify makes.
import { describe, expect, it } from 'vitest';
import { interpretResponse } from '../../src/handlers/endpoint/interpret-response.js';
import { jsonTextOf, MIN_KEPT_CHARS } from '../../src/handlers/json-text.js';

// A canonical filler that makes a body long enough to be kept.
const PAD = `"pad":"${'x'.repeat(MIN_KEPT_CHARS)}"`;

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
    const text = `{"a":1,"b":[true,null,"x"],"c":{"d":-2.5},${PAD}}`;
    expect(jsonTextOf(output(text))).toBe(text);
    expect(jsonTextOf(output(`{"a":1,"a":2,${PAD}}`))).toBe(`{"a":1,"a":2,${PAD}}`);
  });

  it('is JSON.stringify of the value for a body shorter than the kept minimum', () => {
    expect(jsonTextOf(output('{"a":1,"a":2}'))).toBe('{"a":2}');
    const short = `{"a":1,"a":2,"pad":"${'x'.repeat(MIN_KEPT_CHARS - 30)}"}`;
    expect(short.length).toBeLessThan(MIN_KEPT_CHARS);
    expect(jsonTextOf(output(short))).toBe(JSON.stringify(JSON.parse(short)));
  });

  it('is JSON.stringify of the value whenever the text could serialise differently', () => {
    // Each long enough to be kept if it were canonical.
    expect(jsonTextOf(output(`{ "a": 1 ,${PAD}}`))).toBe(`{"a":1,${PAD}}`);
    expect(jsonTextOf(output(`{"p":1.50,"q":1.0,${PAD}}`))).toBe(`{"p":1.5,"q":1,${PAD}}`);
    expect(jsonTextOf(output(`{"e":1E3,${PAD}}`))).toBe(`{"e":1000,${PAD}}`);
    expect(jsonTextOf(output(`{"s":"caf\\u00e9",${PAD}}`))).toBe(`{"s":"café",${PAD}}`);
    expect(jsonTextOf(output(`{"big":12345678901234567890,${PAD}}`))).toBe(
      `{"big":${JSON.stringify(12345678901234567890)},${PAD}}`,
    );
  });

  it('is never the text for a copied or re-shaped value, nor for primitives', () => {
    const parsed = output(`{"a":1,"a":2,${PAD}}`) as Record<string, unknown>;
    expect(jsonTextOf({ ...parsed })).toBe(`{"a":2,${PAD}}`);
    expect(jsonTextOf(output('"text"'))).toBe('"text"');
    expect(jsonTextOf(output('12'))).toBe('12');
  });
});
