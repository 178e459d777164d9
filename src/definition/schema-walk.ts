/**
 * The subschemas of a JSON Schema: the places a schema can stand (under `properties`, `items`,
 * `anyOf`, …), never data such as `enum`, `const`, `default` or `examples`. Iterative: the
 * definition's depth is capped before this runs, but no walk here recurses.
 */

/** Path segments under the root schema: keys, and indexes in lists. */
export type SchemaPath = readonly (string | number)[];

/** One subschema: the object and where it stands. */
export interface Subschema {
  readonly node: Readonly<Record<string, unknown>>;
  readonly path: SchemaPath;
}

/** Keywords whose value is one subschema. */
const ONE = new Set([
  'additionalItems',
  'additionalProperties',
  'contains',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
/** Keywords whose value is a list of subschemas. */
const LIST = new Set(['allOf', 'anyOf', 'items', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas. */
const MAP = new Set([
  '$defs',
  'definitions',
  'dependencies',
  'dependentSchemas',
  'patternProperties',
  'properties',
]);

/** Every object subschema of `schema`, the root first, in document order. */
export function subschemas(schema: unknown): Subschema[] {
  const out: Subschema[] = [];
  const stack: { node: unknown; path: SchemaPath }[] = [{ node: schema, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (!isObject(node)) continue;
    out.push({ node, path });
    const found: { node: unknown; path: SchemaPath }[] = [];
    for (const [key, value] of Object.entries(node)) {
      const at = [...path, key];
      if (ONE.has(key)) found.push({ node: value, path: at });
      if (LIST.has(key) && Array.isArray(value)) {
        value.forEach((child, i) => found.push({ node: child, path: [...at, i] }));
      }
      if (MAP.has(key) && isObject(value)) {
        for (const [name, child] of Object.entries(value))
          found.push({ node: child, path: [...at, name] });
      }
    }
    // Reversed so the stack visits children in document order.
    stack.push(...found.reverse());
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
