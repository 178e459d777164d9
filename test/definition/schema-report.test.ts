/**
 * `validate` and `loadTools` report every error of a file in one pass: a wrong shape elsewhere
 * no longer hides the JSON Schema's errors, and each schema error is one line with its path,
 * what was expected and what was found (not ajv's raw `must be equal to one of the allowed
 * values, must be array, must match a schema in anyOf`).
 */
import { describe, expect, it } from 'vitest';
import { def, loadErrors } from './helpers.js';

function withParameters(parameters: Record<string, unknown>, patch: Record<string, unknown> = {}) {
  return def({
    tool: { type: 'function', function: { name: 'get_weather', parameters } },
    ...patch,
  });
}

const lines = (issues: { path: string; message: string }[]): string[] =>
  issues.map((i) => `${i.path}: ${i.message}`);

describe('one pass over a file', () => {
  it('shape errors and schema errors come together (the report of issue 44)', async () => {
    const issues = await loadErrors([
      withParameters(
        { type: 'object', properties: { city: { type: 'strin' } }, required: ['city'] },
        {
          type: 'endpoint',
          endpoint: { url: 'https://api.example.com/w', method: 'GETT' },
          static_parameters: [{ name: 'k', type: 'str' }],
          result: undefined,
        },
      ),
    ]);
    expect(lines(issues)).toEqual([
      'tools[0].endpoint.method: expected one of get|post|put|delete, got "GETT" (did you mean "get"?)',
      'tools[0].static_parameters[0].type: expected one of string|int|boolean|data_source_list, got "str" (did you mean "string"?)',
      'tools[0].tool.function.parameters.properties.city.type: expected a JSON Schema type (array, boolean, integer, null, number, object, string) or a list of them, got "strin" (did you mean "string"?)',
    ]);
  });

  it('every schema error of a definition, in document order, one line each', async () => {
    const issues = await loadErrors([
      withParameters({
        type: 'object',
        properties: {
          units: { enum: 'c' },
          kinds: { type: ['string', 'nmber'] },
          min: { minimum: '3' },
          nested: { typ: 'string' },
          bare: 'string',
          items: { items: 3 },
        },
        required: ['units', 3],
        additionalProperties: 'no',
      }),
    ]);
    const p = 'tools[0].tool.function.parameters';
    expect(lines(issues)).toEqual([
      `${p}.properties.units.enum: expected a list, got "c"`,
      `${p}.properties.kinds.type[1]: expected a JSON Schema type (array, boolean, integer, null, number, object, string), got "nmber" (did you mean "number"?)`,
      `${p}.properties.min.minimum: expected a number, got "3"`,
      `${p}.properties.nested.typ: is not a JSON Schema keyword (did you mean "type"?)`,
      `${p}.properties.bare: expected an object or a boolean, got "string" (a schema is an object: write {"type": "string"})`,
      `${p}.properties.items.items: expected an object, a boolean or a list, got 3`,
      `${p}.required[1]: expected a string, got 3`,
      `${p}.additionalProperties: expected an object or a boolean, got "no"`,
    ]);
    expect(issues.every((i) => i.code === 'bad_schema')).toBe(true);
  });

  it('each definition of a file is reported, shape-broken or not', async () => {
    const issues = await loadErrors([
      withParameters({ type: 'object', properties: { a: { type: 'strng' } } }),
      def(
        {
          type: 'nope',
          tool: { type: 'function', function: { name: 'b', parameters: { typo: 1 } } },
        },
        'b',
      ),
    ]);
    expect(lines(issues)).toEqual([
      'tools[0].tool.function.parameters.properties.a.type: expected a JSON Schema type (array, boolean, integer, null, number, object, string) or a list of them, got "strng" (did you mean "string"?)',
      'tools[1].type: expected one of action|endpoint|context|log|command, got "nope"',
      'tools[1].tool.function.parameters.typo: is not a JSON Schema keyword (did you mean "type"?)',
    ]);
  });

  it('a valid schema still loads (annotations and $defs are keywords)', async () => {
    const { loadTools } = await import('../../src/definition/load.js');
    const set = await loadTools([
      withParameters({
        $schema: 'http://json-schema.org/draft-07/schema#',
        title: 'Weather',
        type: 'object',
        properties: { city: { $ref: '#/$defs/city', description: 'a city', examples: ['Paris'] } },
        $defs: { city: { type: 'string', default: 'Paris' } },
      }),
    ]);
    expect([...set.tools.keys()]).toEqual(['get_weather']);
  });
});
