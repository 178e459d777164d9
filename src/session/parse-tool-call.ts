/**
 * First stage of a tool call: turn the model's raw argument string into a plain object, or a tool
 * error the model can act on. Limits are checked before JSON.parse; the parse is strict JSON
 * (no trailing commas, single quotes, code fences or NaN). An empty (or all-whitespace) string
 * means "no arguments" and parses as `{}`, since several models send `""` for argument-less tools.
 */
import { ToolError } from '../errors.js';
import { checkArgumentLimits, type ArgumentLimits } from './argument-limits.js';
import { jsonErrorPosition } from '../json-error-position.js';

/** Outcome of parsing a tool call's arguments. */
export type ParsedArguments =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly error: ToolError };

/** Parses raw arguments under the given limits. Never throws. */
export function parseToolArguments(raw: string, limits: ArgumentLimits): ParsedArguments {
  const limitError = checkArgumentLimits(raw, limits);
  if (limitError !== undefined) return { ok: false, error: limitError };
  if (raw.trim() === '') return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return { ok: false, error: describeParseError(raw, err) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return {
      ok: false,
      error: new ToolError('invalid_arguments', `arguments must be a JSON object, got ${kind}`),
    };
  }
  return { ok: true, args: value as Record<string, unknown> };
}

function describeParseError(raw: string, err: unknown): ToolError {
  const message = err instanceof Error ? err.message : String(err);
  const match = /position (\d+)/.exec(message);
  // V8 names no position for an unexpected token (`NaN`, a code fence, `tru`): find it ourselves.
  const position = match?.[1] !== undefined ? Number(match[1]) : jsonErrorPosition(raw);
  const hint = raw.trimStart().startsWith('```')
    ? ' (send the bare JSON object, without a code fence)'
    : '';
  const from = Math.max(0, position - 20);
  const excerpt = raw.slice(from, position + 20);
  return new ToolError(
    'invalid_arguments',
    `arguments are not valid JSON at position ${position}, near ${JSON.stringify(excerpt)}${hint}`,
    { position },
  );
}
