/** A zod issue of a tool definition's shape, as a load issue: its path, what was expected, what was found. */
import type { z } from 'zod';
import type { DefinitionIssue } from '../errors.js';
import { formatPath } from './json-path.js';

/** How a message names an expected JSON type. */
const EXPECTED: ReadonlyMap<string, string> = new Map([
  ['array', 'a list'],
  ['object', 'an object'],
  ['string', 'a string'],
  ['number', 'a number'],
  ['boolean', 'a boolean'],
]);

export function zodIssue(
  zi: z.core.$ZodIssue,
  base: string,
  file: string | undefined,
): DefinitionIssue {
  const path = formatPath(base, zi.path);
  const missing = zi.code === 'invalid_type' && zi.input === undefined;
  const message = missing
    ? 'is required'
    : zi.code === 'invalid_type'
      ? `${expectedText(zi)}, got ${describe(zi.input)}`
      : zi.message;
  return {
    code: 'schema',
    severity: 'error',
    path,
    message,
    ...(file !== undefined ? { file } : {}),
  };
}

/**
 * The schema's own message, or for zod's default one ("Invalid input: expected array, received
 * string") the expected type in words: the found value follows anyway, so it was said twice.
 */
function expectedText(zi: z.core.$ZodIssue & { code: 'invalid_type' }): string {
  if (!zi.message.startsWith('Invalid input')) return zi.message;
  return `expected ${EXPECTED.get(zi.expected) ?? zi.expected}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return JSON.stringify(value) ?? typeof value;
}
