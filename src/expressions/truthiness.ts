import { isPlainObject } from '../own-data.js';

/** Truthiness of a condition's value: JMESPath's (false, null, "", [], {} are false) for both. */
export function isTruthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}
