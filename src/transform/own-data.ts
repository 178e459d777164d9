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
  if (!Object.hasOwn(obj, key)) return undefined;
  const desc = Object.getOwnPropertyDescriptor(obj, key);
  return desc !== undefined && 'value' in desc ? desc.value : undefined;
}

/** Whether `obj` has an own data property `key`. */
export function hasOwnData(obj: PlainObject, key: string): boolean {
  if (!Object.hasOwn(obj, key)) return false;
  const desc = Object.getOwnPropertyDescriptor(obj, key);
  return desc !== undefined && 'value' in desc;
}

/**
 * Sets an own data property without ever invoking the `__proto__` setter or an inherited setter
 * (`obj.__proto__ = x` would change the prototype; defineProperty never does).
 */
export function setOwn(obj: PlainObject, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A shallow copy keeping `__proto__` as an ordinary own key (object spread uses CreateDataProperty). */
export function shallowCopy(obj: PlainObject): PlainObject {
  return { ...obj };
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
 * Empty in the sense of SPEC §2 `default`: absent, `null`, `""`, `[]` or `{}`. `0` and `false` are
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
