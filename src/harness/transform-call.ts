/**
 * Runs one tool call's argument pipeline outside a session (`switchboard transform`): the same
 * stages the session runs (limits, parse, schema, static parameters, defaults), without dispatch.
 */
import type { ToolSet } from '../definition/types.js';
import type { ToolErrorCode } from '../errors.js';
import { resolveArgumentLimits } from '../session/argument-limits.js';
import { applyStaticParameters } from '../transform/static-parameters.js';
import { prepareToolCall } from '../session/prepare-tool-call.js';
import { LazySystemValues } from '../session/session-state.js';
import type { SessionSystemValues, TransformTraceEntry } from '../transform/types.js';
import { checkTransformCallOptions } from './check-run-options.js';

/** Options of {@link transformCall}. */
export interface TransformCallOptions {
  readonly tools: ToolSet;
  readonly tool: string;
  /** The model's arguments (an object) or its raw JSON string. */
  readonly args: Readonly<Record<string, unknown>> | string;
  /** Session variables. Default `{}`. */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** Static parameter values overriding the definition's defaults (like `toolDefaults[tool]`). */
  readonly staticOverrides?: Readonly<Record<string, unknown>>;
  /** `vars.session.language`. Default `en-US`. */
  readonly language?: string;
  /**
   * What a host passes as `createSession({ systemValues })`: `vars.session.source` (the
   * caller's number), `target` (the number called) and `timezone` (default the machine's).
   */
  readonly systemValues?: {
    readonly source?: string;
    readonly target?: string;
    readonly timezone?: string;
  };
  /** Clock for `vars.session.date*`. Default `Date.now`. */
  readonly now?: () => number;
  /** Default `skip`. */
  readonly onMissingTemplateValue?: 'skip' | 'error';
}

/** The final arguments and how they came to be, or why there are none. */
export type TransformCallResult =
  | {
      readonly ok: true;
      readonly args: Record<string, unknown>;
      /** Arguments after static parameters, before `defaults`. */
      readonly withStatic: Record<string, unknown>;
      readonly trace: readonly TransformTraceEntry[];
    }
  | {
      readonly ok: false;
      readonly code: ToolErrorCode;
      readonly message: string;
      /** Tool names, for `unknown_tool`. */
      readonly available?: readonly string[];
      readonly trace: readonly TransformTraceEntry[];
    };

/** The `vars.session.*` values of a one-off call. */
export function oneOffSystemValues(options: {
  readonly language: string;
  readonly now: number;
  readonly source?: string;
  readonly target?: string;
  readonly timezone?: string;
}): SessionSystemValues {
  const timezone = options.timezone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const date = new Date(options.now);
  return {
    id: 'transform',
    language: options.language,
    datetime: date.toISOString(),
    date: new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(date),
    day_of_week: new Intl.DateTimeFormat('en-US', { timeZone: timezone, weekday: 'long' }).format(
      date,
    ),
    timezone,
    ...(options.source !== undefined ? { source: options.source } : {}),
    ...(options.target !== undefined ? { target: options.target } : {}),
  };
}

/** Runs the argument pipeline of one call. Pure apart from the clock; never throws. */
export function transformCall(options: TransformCallOptions): TransformCallResult {
  checkTransformCallOptions(options);
  const vars = options.vars ?? {};
  const now = (options.now ?? Date.now)();
  // Computed only if a template or condition names `vars.session.*`, as in a session's round.
  const system = new LazySystemValues({
    systemValues: () =>
      oneOffSystemValues({ ...options.systemValues, language: options.language ?? 'en-US', now }),
  });
  const raw = typeof options.args === 'string' ? options.args : JSON.stringify(options.args);
  const prepared = prepareToolCall(options.tool, raw, {
    tools: options.tools.tools,
    limits: resolveArgumentLimits(),
    vars,
    system,
    // fromEntries defines an own property even for a tool named `__proto__`.
    ...(options.staticOverrides !== undefined
      ? { toolDefaults: Object.fromEntries([[options.tool, options.staticOverrides]]) }
      : {}),
    onMissingTemplateValue: options.onMissingTemplateValue ?? 'skip',
  });
  if (!prepared.ok) {
    const available =
      prepared.error.code === 'unknown_tool' ? [...options.tools.tools.keys()] : undefined;
    return {
      ok: false,
      code: prepared.error.code,
      message: prepared.error.message,
      ...(available !== undefined ? { available } : {}),
      trace: prepared.transform,
    };
  }
  const withStatic = applyStaticParameters(
    JSON.parse(raw) as Record<string, unknown>,
    prepared.tool.staticParameters,
    {
      ...(options.staticOverrides !== undefined ? { overrides: options.staticOverrides } : {}),
      vars,
      session: system.get(),
    },
  );
  return { ok: true, args: prepared.args, withStatic, trace: prepared.transform };
}
