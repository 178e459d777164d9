/**
 * The shape check of a {@link ScriptedModel} script, made when the model is created: a step with a
 * misspelt field (`toolCalls`, a call's `arguments`) would otherwise answer with nothing and the
 * test would fail far from the typo, or pass for the wrong reason.
 */
import { didYouMean } from '../did-you-mean.js';

const STEP_FIELDS = new Set(['text', 'tool_calls', 'delayMs', 'error', 'usage']);
const CALL_FIELDS = new Set(['name', 'args', 'id']);
/** Names from other SDKs' shapes that mean one of ours. */
const SAME_AS = new Map([
  ['toolCalls', 'tool_calls'],
  ['tools', 'tool_calls'],
  ['content', 'text'],
  ['arguments', 'args'],
  ['input', 'args'],
]);

/** Throws a TypeError naming the first step (and call) whose shape is wrong, and why. */
export function checkScript(steps: unknown, model: string): void {
  if (!Array.isArray(steps)) throw new TypeError(`${model}: the script must be an array of steps`);
  steps.forEach((step: unknown, i) => {
    const at = `${model}: step ${i}`;
    if (!isRecord(step)) throw new TypeError(`${at} must be an object`);
    unknownField(step, STEP_FIELDS, at);
    const { text, tool_calls: calls, delayMs, error } = step;
    if (
      text !== undefined &&
      typeof text !== 'string' &&
      !(Array.isArray(text) && text.every((t) => typeof t === 'string'))
    )
      throw new TypeError(`${at}: text must be a string or an array of strings`);
    if (
      delayMs !== undefined &&
      !(typeof delayMs === 'number' && delayMs >= 0 && isFinite(delayMs))
    )
      throw new TypeError(`${at}: delayMs must be a finite number ≥ 0`);
    if (error !== undefined && typeof error !== 'string')
      throw new TypeError(`${at}: error must be a string (the failure's message)`);
    if (calls === undefined) return;
    if (!Array.isArray(calls)) throw new TypeError(`${at}: tool_calls must be an array`);
    calls.forEach((call: unknown, j) => {
      const where = `${at}, tool_calls[${j}]`;
      if (!isRecord(call)) throw new TypeError(`${where} must be an object`);
      unknownField(call, CALL_FIELDS, where);
      if (typeof call.name !== 'string' || call.name === '')
        throw new TypeError(`${where}: name must be a non-empty string`);
      const args = call.args;
      if (args !== undefined && typeof args !== 'string' && !isRecord(args))
        throw new TypeError(`${where}: args must be an object or a JSON string`);
      if (call.id !== undefined && typeof call.id !== 'string')
        throw new TypeError(`${where}: id must be a string`);
    });
  });
}

function unknownField(value: Record<string, unknown>, known: Set<string>, at: string): void {
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    const same = SAME_AS.get(key);
    const hint =
      same !== undefined && known.has(same)
        ? ` (did you mean \`${same}\`?)`
        : didYouMean(key, known);
    throw new TypeError(`${at}: unknown field \`${key}\`${hint}; known: ${[...known].join(', ')}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
