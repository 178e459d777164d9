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
 * parameters and `defaults`, as they are sent — are larger than the cap, else undefined. The
 * UTF-8 size of their JSON form is estimated in one iterative walk that stops at the cap.
 */
export function checkFinalArgumentSize(
  args: Readonly<Record<string, unknown>>,
  limits: ArgumentLimits,
): ToolError | undefined {
  const max = limits.maxFinalArgumentBytes;
  let bytes = 0;
  const stack: unknown[] = [args];
  while (stack.length > 0 && bytes <= max) {
    const value = stack.pop();
    if (typeof value === 'string') bytes += utf8Length(value, max - bytes) + 2;
    else if (Array.isArray(value)) {
      bytes += 1 + value.length;
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      // Keys, not entries: no [key, value] array per property of every call's arguments.
      const object = value as Readonly<Record<string, unknown>>;
      const keys = Object.keys(object);
      // Per key its quotes, colon and a comma; the braces take the last key's comma back.
      for (const key of keys) {
        bytes += utf8Length(key, max - bytes) + 4;
        stack.push(object[key]);
      }
      bytes += keys.length === 0 ? 2 : 1;
    } else bytes += value === undefined ? 0 : String(value).length;
  }
  if (bytes <= max) return undefined;
  return new ToolError(
    'invalid_arguments',
    `arguments grow to over ${max} bytes once the tool's defaults are applied; send shorter values`,
    { maxBytes: max },
  );
}

/** UTF-8 length of `text`, exact only when it may matter (`room` bytes left). */
function utf8Length(text: string, room: number): number {
  if (text.length > room || text.length * 3 <= room) return text.length;
  return Buffer.byteLength(text, 'utf8');
}
