/**
 * What is wrong with a tool's JSON Schema as written, one readable line per problem with its
 * path: keywords JSON Schema does not have (ajv's strict mode would stop at the first, without a
 * path), and values the JSON Schema meta-schema refuses (ajv reports each as several raw lines:
 * `must be equal to one of the allowed values, must be array, must match a schema in anyOf`).
 */
import type { ErrorObject } from 'ajv';
import { closestName } from '../did-you-mean.js';
import { subschemas, type SchemaPath } from './schema-walk.js';

/** One problem of a schema: where under the schema, and what was expected and found. */
export interface SchemaProblem {
  readonly path: SchemaPath;
  readonly message: string;
}

/**
 * Every problem of `schema` as written, in document order: unknown keywords, then whatever the
 * meta-schema refuses (`metaErrors`, ajv's errors from validating the schema itself).
 */
export function schemaProblems(options: {
  readonly schema: unknown;
  readonly keywords: ReadonlySet<string>;
  readonly metaErrors: readonly ErrorObject[];
}): SchemaProblem[] {
  const { schema } = options;
  const all = [
    ...unknownKeywords(schema, options.keywords),
    ...readableMetaErrors(options.metaErrors, schema),
  ];
  return all.sort((a, b) => comparePaths(schema, a.path, b.path));
}

/** The JSON Schema type names, for "did you mean" on a misspelt `type`. */
const TYPE_NAMES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

/** Every key of a subschema that is not a keyword `known` holds, with the nearest keyword. */
export function unknownKeywords(schema: unknown, known: ReadonlySet<string>): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const { node, path } of subschemas(schema)) {
    for (const key of Object.keys(node)) {
      if (known.has(key)) continue;
      const near = closestName({ name: key, candidates: known });
      out.push({
        path: [...path, key],
        message: `is not a JSON Schema keyword${near !== undefined ? ` (did you mean "${near}"?)` : ''}`,
      });
    }
  }
  return out;
}

/**
 * ajv's meta-schema errors as one line per place. Errors at one place are merged (the branches
 * of an `anyOf` become one "expected … or …"); a place whose failure is explained by an error
 * deeper inside it is left out.
 */
export function readableMetaErrors(
  errors: readonly ErrorObject[],
  schema: unknown,
): SchemaProblem[] {
  const byPlace = new Map<string, ErrorObject[]>();
  for (const e of errors) {
    const list = byPlace.get(e.instancePath);
    if (list === undefined) byPlace.set(e.instancePath, [e]);
    else list.push(e);
  }
  const places = [...byPlace.keys()];
  const out: SchemaProblem[] = [];
  for (const [place, group] of byPlace) {
    if (places.some((p) => p !== place && p.startsWith(`${place}/`))) continue;
    const path = pointerPath(place, schema);
    out.push({ path, message: describeGroup(group, valueAt(schema, path), path) });
  }
  return out;
}

/** "expected X or Y, got Z" for the errors at one place. */
function describeGroup(group: readonly ErrorObject[], found: unknown, path: SchemaPath): string {
  const expected: string[] = [];
  const other: string[] = [];
  let allowed: unknown[] | undefined;
  for (const e of group) {
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'type') {
      const types = Array.isArray(params['type']) ? params['type'] : [params['type']];
      for (const t of types) if (typeof t === 'string') expected.push(typeName(t));
    } else if (e.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
      allowed = params['allowedValues'];
    } else if (!['anyOf', 'oneOf', 'allOf', 'if', 'not', '$ref'].includes(e.keyword)) {
      other.push(e.message ?? `fails ${e.keyword}`);
    }
  }
  const isTypeKeyword = path[path.length - 1] === 'type' || path[path.length - 2] === 'type';
  const parts: string[] = [];
  if (allowed !== undefined && isTypeKeyword && sameItems(allowed, TYPE_NAMES)) {
    // `type`: one type name, or a list of them (the list branch is the "must be array").
    parts.push(
      `a JSON Schema type (${TYPE_NAMES.join(', ')})${expected.includes('a list') ? ' or a list of them' : ''}`,
    );
  } else {
    if (allowed !== undefined)
      parts.push(`one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
    parts.push(...expected);
  }
  const hint = hintFor(found, allowed);
  const unique = [...new Set(parts)];
  const head = unique.length > 0 ? `expected ${either(unique)}, got ${describe(found)}` : '';
  const rest =
    other.length > 0 ? `${other.join('; ')}${head === '' ? `, got ${describe(found)}` : ''}` : '';
  return [head, rest].filter((s) => s !== '').join('; ') + hint;
}

/** A nearby allowed value for a misspelling; the schema to write for a bare type name. */
function hintFor(found: unknown, allowed: readonly unknown[] | undefined): string {
  if (typeof found !== 'string') return '';
  if (allowed !== undefined) {
    const near = closestName({
      name: found,
      candidates: allowed.filter((v): v is string => typeof v === 'string'),
    });
    if (near !== undefined) return ` (did you mean "${near}"?)`;
  }
  if (allowed === undefined && TYPE_NAMES.includes(found))
    return ` (a schema is an object: write {"type": "${found}"})`;
  return '';
}

/** `a`, `a or b`, `a, b or c`. */
function either(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]!}`;
}

function sameItems(a: readonly unknown[], b: readonly string[]): boolean {
  return a.length === b.length && b.every((x) => a.includes(x));
}

function typeName(t: string): string {
  switch (t) {
    case 'array':
      return 'a list';
    case 'object':
      return 'an object';
    case 'integer':
      return 'a whole number';
    case 'null':
      return 'null';
    default:
      return `a ${t}`;
  }
}

/** How a found value reads in a message. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list (${abbreviate(JSON.stringify(value))})`;
  if (typeof value === 'object') return 'an object';
  return abbreviate(JSON.stringify(value) ?? typeof value);
}

function abbreviate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** A JSON pointer (`/properties/city/type`) as path segments, indexes where the value is a list. */
export function pointerPath(pointer: string, schema: unknown): SchemaPath {
  if (pointer === '') return [];
  const out: (string | number)[] = [];
  let node: unknown = schema;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^\d+$/.test(key)) {
      out.push(Number(key));
      node = node[Number(key)];
    } else {
      out.push(key);
      node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
    }
  }
  return out;
}

/** Document order of two paths in `schema`: by key order where they part, the shorter first. */
function comparePaths(schema: unknown, a: SchemaPath, b: SchemaPath): number {
  let node: unknown = schema;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) {
      if (typeof x === 'number' && typeof y === 'number') return x - y;
      const keys = isObject(node) ? Object.keys(node) : [];
      return keys.indexOf(String(x)) - keys.indexOf(String(y));
    }
    node = valueAt(node, [x]);
  }
  return a.length - b.length;
}

function valueAt(schema: unknown, path: SchemaPath): unknown {
  let node: unknown = schema;
  for (const key of path) {
    if (typeof key === 'number') node = Array.isArray(node) ? node[key] : undefined;
    else node = isObject(node) && Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return node;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
