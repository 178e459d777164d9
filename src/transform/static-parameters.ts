/**
 * Static parameters (docs/transform.md): values hidden from the LLM, merged into its arguments before the
 * `defaults` run, overriding whatever the LLM sent under the same name.
 */
import type { StaticParameter } from './types.js';
import {
  deepCopy,
  getOwn,
  isPlainObject,
  setOwn,
  shallowCopy,
  type PlainObject,
} from '../own-data.js';
import { argumentError } from '../option-checks.js';
import { renderMustache } from '../expressions/mustache.js';
import type { SessionSystemValues } from './types.js';

/** Options of {@link applyStaticParameters}. */
export interface ApplyStaticParametersOptions {
  /** Per session/agent values (`toolDefaults[tool]`), by parameter name; an own key wins over `default`. */
  readonly overrides?: Readonly<Record<string, unknown>>;
  /** Session variables for mustache templates in string values. */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** System values, reachable as `{{vars.session.*}}`. */
  readonly session?: SessionSystemValues;
}

/**
 * Returns a new argument object: `args` with every static parameter that has a value set to it.
 * The value is `overrides[name]` when present as an own key (and not `undefined`), else the
 * parameter's `default`;
 * a parameter with neither is left out (the loader reports a required one). String values are
 * rendered as mustache templates (no HTML escaping); arrays and objects are copied.
 * Never mutates `args`, `params` or the options.
 */
export function applyStaticParameters(
  args: Readonly<Record<string, unknown>>,
  params: readonly StaticParameter[],
  options: ApplyStaticParametersOptions = {},
): Record<string, unknown> {
  if (!isPlainObject(args))
    throw argumentError('applyStaticParameters(args)', 'an object of arguments', args);
  if (!Array.isArray(params))
    throw argumentError(
      'applyStaticParameters(params)',
      "an array (a tool's staticParameters)",
      params,
    );
  const out: PlainObject = shallowCopy(args);
  const overrides = options.overrides;
  for (const param of params) {
    let value: unknown =
      overrides === undefined ? undefined : getOwn(overrides as PlainObject, param.name);
    if (value === undefined) value = param.default;
    if (value === undefined) continue;
    if (typeof value === 'string')
      value = renderMustache(value, { vars: options.vars, session: options.session });
    else if (value !== null && typeof value === 'object') value = deepCopy(value);
    setOwn(out, param.name, value);
  }
  return out;
}
