/**
 * switchboard/transform — the defaults/transform interpreter, templates and the workflow expression
 * languages (CEL, JMESPath) as standalone functions (docs/transform.md, docs/workflows.md).
 */
// The CEL evaluator loads with this entry: its compile functions are synchronous.
import '../expressions/cel-register.js';

// --- transform ------------------------------------------------------------------------------
export type * from '../transform/types.js';
export { compileDefaults, type CompileDefaultsOptions } from '../transform/compile-defaults.js';
export {
  applyStaticParameters,
  type ApplyStaticParametersOptions,
} from '../transform/static-parameters.js';
export { renderMustache, checkMustache, type MustacheView } from '../expressions/mustache.js';
export {
  compileTemplate,
  MAX_RENDERED_LENGTH,
  type CompiledTemplate,
  type RenderFailure,
  type TemplateProblem,
} from '../transform/template.js';
export { MAX_SPEC_NUMBER } from '../transform/format-spec.js';

export { MAX_PATH_SEGMENTS } from '../transform/field-path.js';
export { MAX_PATTERN_INPUT_LENGTH, MAX_PATTERN_PROGRAM_SIZE } from '../definition/linear-regexp.js';
// --- workflows (context.task: Step Workflows, expression and event tasks) ---------------------
export {
  compileExpression,
  compileCel,
  compileJmesPath,
  isTruthy,
  MAX_EXPRESSION_LENGTH,
  MAX_EXPRESSION_DEPTH,
  MAX_COMPREHENSION_NESTING,
  type CompiledExpression,
  type CompileResult,
  type ExpressionLanguage,
  type RawExpression,
} from '../expressions/expression.js';
export {
  MAX_EVALUATION_STEPS,
  EVALUATION_TIME_SLICE_MS,
  MAX_RESULT_BYTES,
  MAX_RESULT_DEPTH,
  type BudgetOptions,
} from '../expressions/budget.js';
export { describeWorkflows } from '../session/workflow/describe.js';
