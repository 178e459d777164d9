/**
 * Where a tools document keeps its definitions (a list, `{ "tools": [...] }`, `{ "items": [...] }`
 * or one definition), and what to say when `tools` holds something else.
 */
import { getOwn, isPlainObject } from '../own-data.js';

export function toolList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isPlainObject(value)) return undefined;
  for (const key of ['tools', 'items']) {
    const list = getOwn(value, key);
    if (Array.isArray(list)) return list;
  }
  if (Object.hasOwn(value, 'tool') || isPlainObject(getOwn(value, 'definition'))) return [value];
  return undefined;
}

/**
 * `{ "tools": … }` holding something other than a list: the place that is wrong is `tools`. An
 * object there whose values are definitions was written keyed by tool name; the name belongs in
 * each definition's `tool.function.name`.
 */
export function notAList(value: unknown): { path: string; message: string } | undefined {
  if (!isPlainObject(value)) return undefined;
  const key = ['tools', 'items'].find((k) => Object.hasOwn(value, k));
  if (key === undefined) return undefined;
  const found = getOwn(value, key);
  if (!isPlainObject(found)) {
    const got = found === null ? 'null' : (JSON.stringify(found) ?? typeof found).slice(0, 40);
    return { path: key, message: `expected a list of tool definitions, got ${got}` };
  }
  const names = Object.keys(found);
  const keyedByName =
    names.length > 0 &&
    names.every((name) => {
      const entry = getOwn(found, name);
      return isPlainObject(entry) && (Object.hasOwn(entry, 'tool') || Object.hasOwn(entry, 'type'));
    });
  const shown = names
    .slice(0, 3)
    .map((n) => JSON.stringify(n))
    .join(', ');
  return {
    path: key,
    message: keyedByName
      ? `expected a list of tool definitions, got an object whose keys look like tool names (${shown}${names.length > 3 ? ', …' : ''}): write "${key}": [ {…}, … ], each definition naming itself in tool.function.name`
      : 'expected a list of tool definitions, got an object',
  };
}
