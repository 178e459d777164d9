/**
 * Where a subschema can stand: every keyword that holds one, in document order, and never the
 * data keywords (`enum`, `const`, `default`, `examples`). Unknown keywords and refused patterns
 * are reported only at the places this walk visits.
 */
import { describe, expect, it } from 'vitest';
import { subschemas } from '../../src/definition/schema-walk.js';
import { patternProblems } from '../../src/definition/schema-patterns.js';

const paths = (schema: unknown): string[] => subschemas(schema).map((s) => s.path.join('.'));

describe('subschemas', () => {
  it('visits every place a schema stands, the root first, in document order', () => {
    expect(
      paths({
        properties: { a: { type: 'string' }, b: { items: { type: 'string' } } },
        additionalProperties: { type: 'number' },
        prefixItems: [{ type: 'string' }, { type: 'integer' }],
        anyOf: [{}, {}],
        $defs: { d: { not: {} } },
      }),
    ).toEqual([
      '',
      'properties.a',
      'properties.b',
      'properties.b.items',
      'additionalProperties',
      'prefixItems.0',
      'prefixItems.1',
      'anyOf.0',
      'anyOf.1',
      '$defs.d',
      '$defs.d.not',
    ]);
  });

  it('never walks into data: enum, const, default, examples', () => {
    expect(
      paths({
        enum: [{ pattern: '(' }],
        const: { items: {} },
        default: { properties: { x: {} } },
        examples: [{ not: {} }],
      }),
    ).toEqual(['']);
  });

  it('a refused pattern is found under additionalProperties and prefixItems, in order', () => {
    const problems = patternProblems({
      prefixItems: [{ pattern: '(a' }],
      additionalProperties: { pattern: '[b' },
    });
    expect(problems.map((p) => p.path.join('.'))).toEqual([
      'prefixItems.0.pattern',
      'additionalProperties.pattern',
    ]);
  });
});
