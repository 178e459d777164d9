/**
 * Limits on the raw argument string a model sends, checked BEFORE parsing: a huge string is never
 * handed to JSON.parse, and nesting depth is measured by an iterative character scan (no
 * recursion, so `[[[[…` 100 000 deep cannot overflow the stack here or later).
 */
import { ToolError } from '../errors.js';
import { nestingDepthExceeds } from '../json-depth.js';

export { nestingDepthExceeds };

/** Default cap on the raw argument string, bytes (UTF-8): 256 KiB. */
export const DEFAULT_MAX_ARGUMENT_BYTES = 256 * 1024;
/**
 * Default cap on a call's final arguments (after static parameters and `defaults`), bytes of
 * their JSON form: 1 MiB. Templates can repeat one large argument many times.
 */
export const DEFAULT_MAX_FINAL_ARGUMENT_BYTES = 1024 * 1024;
/** Default cap on object/array nesting depth: 32. */
export const DEFAULT_MAX_ARGUMENT_DEPTH = 32;

/** Default cap on tool calls run from one model answer: 32. */
export const DEFAULT_MAX_CALLS_PER_ANSWER = 32;
/** Default cap on one session's endpoint calls in flight at once: 8. */
export const DEFAULT_MAX_CONCURRENT_ENDPOINT_CALLS = 8;

/** Resolved limits. */
export interface ArgumentLimits {
  readonly maxArgumentBytes: number;
  readonly maxArgumentDepth: number;
  readonly maxFinalArgumentBytes: number;
  readonly maxCallsPerAnswer: number;
  readonly maxConcurrentEndpointCalls: number;
}

/**
 * Fills in the defaults (256 KiB, depth 32, 1 MiB final arguments, 32 calls per answer, 8
 * endpoint calls at once).
 */
export function resolveArgumentLimits(limits?: {
  readonly maxArgumentBytes?: number;
  readonly maxArgumentDepth?: number;
  readonly maxFinalArgumentBytes?: number;
  readonly maxCallsPerAnswer?: number;
  readonly maxConcurrentEndpointCalls?: number;
}): ArgumentLimits {
  // Most sessions set none: one shared object, not one per session.
  if (limits === undefined) return DEFAULT_LIMITS;
  return {
    maxArgumentBytes: limits.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES,
    maxArgumentDepth: limits.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH,
    maxFinalArgumentBytes: positiveInteger(
      limits.maxFinalArgumentBytes ?? DEFAULT_MAX_FINAL_ARGUMENT_BYTES,
      'limits.maxFinalArgumentBytes',
    ),
    maxCallsPerAnswer: positiveInteger(
      limits.maxCallsPerAnswer ?? DEFAULT_MAX_CALLS_PER_ANSWER,
      'limits.maxCallsPerAnswer',
    ),
    maxConcurrentEndpointCalls: positiveInteger(
      limits.maxConcurrentEndpointCalls ?? DEFAULT_MAX_CONCURRENT_ENDPOINT_CALLS,
      'limits.maxConcurrentEndpointCalls',
    ),
  };
}

/** The limits of a session that sets none: the defaults, resolved once. */
const DEFAULT_LIMITS: ArgumentLimits = Object.freeze(resolveArgumentLimits({}));

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Returns a tool error (`invalid_arguments`) if `raw` breaks a limit, else undefined. */
export function checkArgumentLimits(raw: string, limits: ArgumentLimits): ToolError | undefined {
  // A UTF-16 unit is 1..3 UTF-8 bytes, so the exact count is only needed in between.
  const tooLarge =
    raw.length > limits.maxArgumentBytes ||
    (raw.length * 3 > limits.maxArgumentBytes &&
      Buffer.byteLength(raw, 'utf8') > limits.maxArgumentBytes);
  if (tooLarge) {
    return new ToolError(
      'invalid_arguments',
      `arguments are too large (over ${limits.maxArgumentBytes} bytes); send a smaller object`,
      { maxBytes: limits.maxArgumentBytes },
    );
  }
  const depth = nestingDepthExceeds(raw, limits.maxArgumentDepth);
  if (depth !== undefined) {
    return new ToolError(
      'invalid_arguments',
      `arguments are nested too deeply (more than ${limits.maxArgumentDepth} levels, at position ${depth})`,
      { maxDepth: limits.maxArgumentDepth },
    );
  }
  return undefined;
}

/**
 * Returns a tool error (`invalid_arguments`) when the final arguments of a call — after static
 * parameters and `defaults`, as they are sent — are larger than the cap, else undefined. The size
 * is that of `JSON.stringify(args)` in UTF-8, escapes included. A first walk bounds it from above
 * (a string's UTF-16 unit is at most six bytes, `\u001f`); only arguments that bound passes over
 * the cap (strings of a sixth of it) are counted exactly, in a second walk that stops past the
 * cap. Neither allocates per string.
 */
export function checkFinalArgumentSize(
  args: Readonly<Record<string, unknown>>,
  limits: ArgumentLimits,
): ToolError | undefined {
  const max = limits.maxFinalArgumentBytes;
  if (jsonBytes(args, max, false) <= max || jsonBytes(args, max, true) <= max) return undefined;
  return new ToolError(
    'invalid_arguments',
    `arguments grow to over ${max} bytes once the tool's defaults are applied; send shorter values`,
    { maxBytes: max },
  );
}

/**
 * The UTF-8 size of `JSON.stringify(value)`: `exact`, or bounded from above (six bytes per
 * string unit). Iterative; stops once over `max`.
 */
function jsonBytes(value: Readonly<Record<string, unknown>>, max: number, exact: boolean): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && bytes <= max) {
    const value = stack.pop();
    if (typeof value === 'string') bytes += stringBytes(value, max - bytes, exact);
    else if (Array.isArray(value)) {
      // Brackets and the commas between items.
      bytes += value.length === 0 ? 2 : value.length + 1;
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      // Keys, not entries: no [key, value] array per property of every call's arguments.
      const object = value as Readonly<Record<string, unknown>>;
      let members = 0;
      for (const key of Object.keys(object)) {
        const member = object[key];
        // JSON.stringify leaves such a member out.
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol')
          continue;
        // The key as a JSON string, its colon and a comma; the braces take the last comma back.
        bytes += stringBytes(key, max - bytes, exact) + 2;
        members++;
        stack.push(member);
      }
      bytes += members === 0 ? 2 : 1;
    } else bytes += scalarBytes(value);
  }
  return bytes;
}

/** The most UTF-8 bytes one UTF-16 unit takes in a JSON string: `\u001f`. */
const MAX_UNIT_BYTES = 6;

function stringBytes(text: string, room: number, exact: boolean): number {
  return exact ? jsonStringBytes(text, room) : text.length * MAX_UNIT_BYTES + 2;
}

/**
 * JSON text length of a number, boolean or null; a list's undefined or function is written `null`
 * (NaN and Infinity too).
 */
function scalarBytes(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (typeof value === 'bigint') return String(value).length;
  return 4;
}

/** Bytes an ASCII character adds as JSON beyond its own: `\"` `\\` `\n`… one, other controls five. */
const ASCII_EXTRA = (() => {
  const extra = new Uint8Array(128);
  for (let c = 0; c < 0x20; c++) extra[c] = 5;
  for (const c of [8, 9, 10, 12, 13, 0x22, 0x5c]) extra[c] = 1;
  return extra;
})();

/**
 * UTF-8 bytes of `text` written as a JSON string (quotes and escapes included), as
 * JSON.stringify writes it: a lone surrogate is `\uXXXX`, six bytes. Exact up to `room`; past
 * it, any count over `room` is enough.
 */
function jsonStringBytes(text: string, room: number): number {
  const length = text.length;
  // Each UTF-16 unit is at least one byte.
  let bytes = length + 2;
  if (bytes > room) return bytes;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += ASCII_EXTRA[c]!;
    else if (c < 0x800) bytes += 1;
    else if (c < 0xd800 || c > 0xdfff) bytes += 2;
    else if (c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      // A pair: four bytes for its two units.
      bytes += 2;
      i++;
    } else bytes += 5;
  }
  return bytes;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
