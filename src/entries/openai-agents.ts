/**
 * switchboard/openai-agents — a switchboard tool set as `@openai/agents` function tools
 * (docs/adapters.md); `@openai/agents` is an optional peer dependency, loaded only when this
 * entry is imported.
 */
export {
  createAgentsTools,
  type AgentsFunctionTool,
  type AgentsSchema,
  type AgentsTools,
  type AgentsToolsOptions,
} from '../adapters/openai-agents.js';
export type { CallSessionOptions } from '../call-runner/served-tools.js';
export { SwitchboardToolError, type AdapterOptions, type SpokenLine } from '../adapters/core.js';
