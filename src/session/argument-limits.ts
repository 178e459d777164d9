/**
 * Limits on the raw argument string a model sends, checked BEFORE parsing: a huge string is never
 * handed to JSON.parse, and nesting depth is measured by an iterative character scan (no
 * recursion, so `[[[[…` 100 000 deep cannot overflow the stack here or later).
 */
import { ToolError } from '../errors.js';

/** Default cap on the raw argument string, bytes (UTF-8): 256 KiB. */
export const DEFAULT_MAX_ARGUMENT_BYTES = 256 * 1024;
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
  readonly maxCallsPerAnswer: number;
  readonly maxConcurrentEndpointCalls: number;
}

/** Fills in the defaults (256 KiB, depth 32, 32 calls per answer, 8 endpoint calls at once). */
export function resolveArgumentLimits(limits?: {
  readonly maxArgumentBytes?: number;
  readonly maxArgumentDepth?: number;
  readonly maxCallsPerAnswer?: number;
  readonly maxConcurrentEndpointCalls?: number;
}): ArgumentLimits {
  return {
    maxArgumentBytes: limits?.maxArgumentBytes ?? DEFAULT_MAX_ARGUMENT_BYTES,
    maxArgumentDepth: limits?.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH,
    maxCallsPerAnswer: positiveInteger(
      limits?.maxCallsPerAnswer ?? DEFAULT_MAX_CALLS_PER_ANSWER,
      'limits.maxCallsPerAnswer',
    ),
    maxConcurrentEndpointCalls: positiveInteger(
      limits?.maxConcurrentEndpointCalls ?? DEFAULT_MAX_CONCURRENT_ENDPOINT_CALLS,
      'limits.maxConcurrentEndpointCalls',
    ),
  };
}

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
 * Scans JSON-ish text once, skipping string contents (with escapes), and returns the position
 * where depth first exceeds `max`, or undefined. Works on malformed text too: it only counts.
 */
export function nestingDepthExceeds(raw: string, max: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > max) return i;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (depth > 0) depth--;
    }
  }
  return undefined;
}
