/**
 * The keys a zod object schema knows at a path inside a larger schema (through optional, union,
 * array, record and pipe), for a misspelt key's "did you mean" in load errors (fixtures, workflows).
 */

/** Zod's definition of a schema, as far as the walk below reads it. */
interface SchemaDef {
  readonly type: string;
  readonly shape?: Readonly<Record<string, unknown>>;
  readonly element?: unknown;
  readonly innerType?: unknown;
  readonly options?: readonly unknown[];
  readonly in?: unknown;
  /** A record's value schema. */
  readonly valueType?: unknown;
}

function defOf(schema: unknown): SchemaDef | undefined {
  return (schema as { _zod?: { def?: SchemaDef } } | undefined)?._zod?.def;
}

/** The object schemas `schema` may be at `path` (through optional, union, array and pipe). */
function objectsAt(schema: unknown, path: readonly PropertyKey[]): SchemaDef[] {
  const def = defOf(schema);
  if (def === undefined) return [];
  if (def.innerType !== undefined) return objectsAt(def.innerType, path);
  if (def.type === 'pipe') return objectsAt(def.in, path);
  if (def.type === 'union') return (def.options ?? []).flatMap((o) => objectsAt(o, path));
  if (path.length === 0) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'array' && typeof head === 'number') return objectsAt(def.element, rest);
  // A map by name (`actions.hangup`, `session.services.clinic`): every key has the value schema.
  if (def.type === 'record' && typeof head === 'string') return objectsAt(def.valueType, rest);
  if (def.type === 'object' && typeof head === 'string' && def.shape !== undefined)
    return Object.hasOwn(def.shape, head) ? objectsAt(def.shape[head], rest) : [];
  return [];
}

/** The keys the fixture format knows at `path`, for a misspelt key's "did you mean". */
export function keysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((d) => Object.keys(d.shape ?? {})))];
}
