/**
 * Own-data helpers: the only way the transform interpreter reads or writes values that came from
 * a model, a definition or a session. Nothing here ever touches a prototype, a getter or a method.
 */

/** A JSON-like object: prototype is `Object.prototype` or `null`. */
export type PlainObject = Record<string, unknown>;

const objectProto = Object.prototype;

/** True for plain objects (not arrays, class instances, dates, maps …). */
export function isPlainObject(value: unknown): value is PlainObject {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === objectProto || proto === null;
}

/**
 * The own data value of `obj[key]`, or `undefined` when absent. Accessor properties (getters) are
 * never invoked: they read as absent.
 */
export function getOwn(obj: PlainObject, key: string): unknown {
  const desc = Object.getOwnPropertyDescriptor(obj, key);
  return desc === undefined ? undefined : desc.value;
}

/**
 * `obj[key]` when it is an own property, else `undefined`: the fast read the apply loop uses to
 * walk rule keys (written by the definition author) through the arguments (JSON data, which has
 * no accessors). Template fields and conditions use {@link getOwn}, which never runs a getter.
 */
export function ownValue(obj: PlainObject, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/**
 * Sets an own data property without ever invoking the `__proto__` setter or an inherited setter
 * (`obj.__proto__ = x` would change the prototype; defineProperty never does).
 */
export function setOwn(obj: PlainObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A shallow copy of the own enumerable properties, keeping `__proto__` as an ordinary own key.
 * Not object spread: V8 gives spread results a shape that turns adding a property into a slow
 * path, and the apply loop adds properties to its copies. `Object.assign` is the fast path, safe
 * only when there is no own `__proto__` key (assign would call the prototype setter for it).
 */
export function shallowCopy(obj: PlainObject): PlainObject {
  if (!Object.hasOwn(obj, '__proto__')) return Object.assign({}, obj);
  const out: PlainObject = {};
  for (const k of Object.keys(obj)) setOwn(out, k, getOwn(obj, k));
  return out;
}

/**
 * A shallow copy without `key` — how `remove` works, since `delete` would put the object in V8's
 * slow dictionary mode. Rest destructuring defines properties (CreateDataProperty), so an own
 * `__proto__` key stays an own key.
 */
export function copyWithout(obj: PlainObject, key: string): PlainObject {
  const { [key]: _removed, ...rest } = obj;
  return rest;
}

/**
 * A deep copy of JSON-like data: plain objects and arrays are copied, everything else is kept as
 * is. Own enumerable keys only; `__proto__` stays an own key. Used so a definition's `value` is
 * never shared with the arguments it is written into.
 */
export function deepCopy<T>(value: T): T {
  return copyValue(value, 0) as T;
}

const MAX_COPY_DEPTH = 1000;

function copyValue(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_COPY_DEPTH) throw new RangeError('value nested too deeply to copy');
  if (Array.isArray(value)) {
    const out: unknown[] = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyValue(value[i], depth + 1);
    return out;
  }
  if (!isPlainObject(value)) return value;
  const out: PlainObject = {};
  for (const key of Object.keys(value)) setOwn(out, key, copyValue(getOwn(value, key), depth + 1));
  return out;
}

/**
 * Empty in the sense of docs/transform.md `default`: absent, `null`, `""`, `[]` or `{}`. `0` and `false` are
 * values.
 */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.length === 0;
  if (!isPlainObject(value)) return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return Object.getOwnPropertyNames(value).length === 0;
}
