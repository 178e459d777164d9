/**
 * switchboard/symphony — Symphony configurations (tools, agents, teams, pipelines) loaded as data
 * and run on the session engine, with results in Symphony's shape (docs/symphony.md).
 */
// Rule-based teams' conditions are CEL; the evaluator loads with loadSymphony when one is present.
export { loadSymphony, type LoadSymphonyOptions } from '../symphony/load.js';
export {
  createSymphony,
  type Symphony,
  type SymphonyOptions,
  type RunAgentInput,
  type RunTeamInput,
  type RunPipelineInput,
} from '../symphony/runner.js';
export type { Assignment, Delegator, DelegationInput, ModelChoice } from '../symphony/runtime.js';
export { ASSIGN_TOOL } from '../symphony/team-run.js';
export { DEFAULT_MAX_PARALLEL_TASKS } from '../symphony/resolve.js';
export { systemPromptOf } from '../symphony/prompt.js';
export type * from '../symphony/types.js';
