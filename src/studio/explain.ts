/** `transform --explain` for the page: one call's arguments through the pipeline, rule by rule. */
import type { ToolSet } from '../definition/types.js';
import { transformCall } from '../harness/transform-call.js';
import type { ExplainView } from './protocol.js';
import { StudioProblem } from './studio-problem.js';

/** Options of {@link explainCall}. */
export interface ExplainCallOptions {
  readonly tools: ToolSet;
  readonly tool: string;
  /** The model's arguments as JSON text (sent as the model would send them). */
  readonly args: string;
  /** Session variables as JSON text; empty: none. */
  readonly vars: string;
  /** `vars.session.language`. Default `en-US`. */
  readonly language?: string;
}

/** The final arguments and each rule's effect, or the error the call would get. */
export function explainCall(o: ExplainCallOptions): ExplainView {
  let vars: unknown = {};
  if (o.vars.trim() !== '') {
    try {
      vars = JSON.parse(o.vars);
    } catch (error) {
      throw new StudioProblem(400, 'bad_vars', `variables: not JSON: ${(error as Error).message}`);
    }
  }
  if (vars === null || typeof vars !== 'object' || Array.isArray(vars))
    throw new StudioProblem(400, 'bad_vars', 'variables: expected a JSON object');
  const result = transformCall({
    tools: o.tools,
    tool: o.tool,
    args: o.args.trim() === '' ? '{}' : o.args,
    vars: vars as Record<string, unknown>,
    ...(o.language !== undefined && o.language !== '' ? { language: o.language } : {}),
  });
  const steps = result.trace.map((e) => ({
    outcome: e.outcome,
    action: e.action,
    key: e.key,
    ...(e.value !== undefined ? { value: e.value } : {}),
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
    ...(e.detail !== undefined ? { detail: e.detail } : {}),
  }));
  return result.ok
    ? { ok: true, args: result.args, withStatic: result.withStatic, steps }
    : { ok: false, code: result.code, message: result.message, steps };
}
