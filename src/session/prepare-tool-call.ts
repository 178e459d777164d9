/**
 * Second stage of a tool call, everything before dispatch: look the tool up among those the active
 * agent may use, parse and check the raw arguments, validate them against the function's JSON
 * Schema, merge static parameters, apply `defaults` and cap the size of the result. Pure and
 * synchronous; never throws.
 */
import type { ToolDefinition } from '../definition/types.js';
import { ToolError } from '../errors.js';
import type { ApplyStaticParametersOptions } from '../transform/static-parameters.js';
import type {
  SessionSystemValues,
  TransformContext,
  TransformOutcome,
  TransformTraceEntry,
} from '../transform/types.js';
import { checkFinalArgumentSize, type ArgumentLimits } from './argument-limits.js';
import { applyStaticParameters } from './deps.js';
import { parseToolArguments } from './parse-tool-call.js';
import type { LazySystemValues } from './session-state.js';

/** What preparing a call needs besides the call itself. */
export interface PrepareContext {
  /** Tools the active agent may call, by name. */
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  /**
   * Generated tools the model is shown beside `tools` this round (a workflow's submit tool, an
   * expression task's tool): dispatched before this function, listed when a call names no tool.
   */
  readonly generated?: readonly string[];
  readonly limits: ArgumentLimits;
  readonly vars: Readonly<Record<string, unknown>>;
  /** `vars.session.*`, computed on first read. */
  readonly system: LazySystemValues;
  /** Per tool, per static parameter overrides (SessionOptions.toolDefaults). */
  readonly toolDefaults?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly onMissingTemplateValue: 'skip' | 'error';
}

/** A call ready to dispatch, or the tool error that stopped it (with what was known by then). */
export type PreparedCall =
  | {
      readonly ok: true;
      readonly tool: ToolDefinition;
      readonly args: Record<string, unknown>;
      readonly transform: readonly TransformTraceEntry[];
    }
  | {
      readonly ok: false;
      readonly tool?: ToolDefinition;
      readonly args?: Record<string, unknown>;
      readonly transform: readonly TransformTraceEntry[];
      readonly error: ToolError;
    };

/** Runs lookup → limits → parse → validate → static parameters → defaults → final size. */
export function prepareToolCall(
  name: string,
  rawArguments: string,
  ctx: PrepareContext,
): PreparedCall {
  const tool = ctx.tools.get(name);
  if (tool === undefined) {
    const available = [...ctx.tools.keys(), ...(ctx.generated ?? [])];
    return {
      ok: false,
      transform: [],
      error: new ToolError(
        'unknown_tool',
        `no tool named ${JSON.stringify(truncate(name, 100))}; available tools: ${available.join(', ') || '(none)'}`,
        { available },
      ),
    };
  }
  const parsed = parseToolArguments(rawArguments, ctx.limits);
  if (!parsed.ok) return { ok: false, tool, transform: [], error: parsed.error };

  const validation = tool.validator.validate(parsed.args);
  if (!validation.ok) {
    const failures = validation.failures.slice(0, 10);
    const text = failures
      .map((f) => `${f.path === '' ? '(root)' : f.path}: ${f.message}`)
      .join('; ');
    return {
      ok: false,
      tool,
      args: parsed.args,
      transform: [],
      error: new ToolError('invalid_arguments', `arguments do not match the schema: ${text}`, {
        failures: failures.map((f) => ({ path: f.path, message: f.message })),
      }),
    };
  }

  // The schema's defaults filled in (a copy when there are any): what the rest of the call uses.
  let merged = validation.value as Record<string, unknown>;
  let outcome: TransformOutcome;
  if (tool.staticParameters.length === 0 && tool.defaults.rules.length === 0) {
    // Nothing to merge or apply (most tools): the arguments are this call's own parse, used as
    // they are, with no template context, copy or trace.
    outcome = { ok: true, args: merged, trace: NO_TRANSFORMS };
  } else {
    const overrides =
      ctx.toolDefaults !== undefined && Object.hasOwn(ctx.toolDefaults, tool.name)
        ? ctx.toolDefaults[tool.name]
        : undefined;
    // One context for both steps (the defaults ignore `overrides`). Without static parameters
    // there is nothing to merge: the rules copy the arguments anyway (they never write to their
    // input), so no copy is made here.
    const templates = new CallTemplateContext(ctx, overrides);
    if (tool.staticParameters.length > 0)
      merged = applyStaticParameters(merged, tool.staticParameters, templates);
    outcome = tool.defaults.apply(merged, templates);
  }
  if (!outcome.ok) {
    return {
      ok: false,
      tool,
      args: merged,
      transform: outcome.trace,
      error: new ToolError('missing_template_value', outcome.message),
    };
  }
  const tooLarge = checkFinalArgumentSize(outcome.args, ctx.limits);
  if (tooLarge !== undefined) {
    return { ok: false, tool, args: parsed.args, transform: outcome.trace, error: tooLarge };
  }
  return { ok: true, tool, args: outcome.args, transform: outcome.trace };
}

/** The trace of a call no rule applies to: shared, never written. */
const NO_TRANSFORMS: readonly TransformTraceEntry[] = Object.freeze([]);

/**
 * What a call's templates and conditions may read. `session` is a getter, so the round's system
 * values are computed only when a template or condition names `vars.session.*`.
 */
class CallTemplateContext implements TransformContext, ApplyStaticParametersOptions {
  readonly vars: Readonly<Record<string, unknown>>;
  readonly overrides: Readonly<Record<string, unknown>> | undefined;
  readonly onMissingTemplateValue: 'skip' | 'error';
  readonly #system: LazySystemValues;

  constructor(ctx: PrepareContext, overrides: Readonly<Record<string, unknown>> | undefined) {
    this.vars = ctx.vars;
    this.overrides = overrides;
    this.onMissingTemplateValue = ctx.onMissingTemplateValue;
    this.#system = ctx.system;
  }

  get session(): SessionSystemValues {
    return this.#system.get();
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
