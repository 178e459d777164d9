/**
 * switchboard/serve — the agent format (runAgent, its config and output) and the agent over HTTP
 * (docs/agent-format.md).
 */
// --- the agent format ----------------------------------------------------------------------
export {
  runAgent,
  parseChatHistory,
  type RunAgentOptions,
  type ChatHistoryInput,
  type ChatHistoryItem,
} from '../agent-format/run-agent.js';
export {
  AGENT_OUTPUT_SCHEMA,
  toAgentOutput,
  toAgentTrace,
  outputText,
  type AgentOutput,
  type AgentTrace,
} from '../agent-format/agent-output.js';
export {
  applyAgentConfig,
  parseAgentConfig,
  AgentConfigError,
  type ParsedAgentConfig,
} from '../agent-format/agent-config.js';
// --- serve (the agent over HTTP) -------------------------------------------------------------
export {
  createAgentServer,
  DEFAULT_MAX_BODY_BYTES,
  type AgentServer,
  type AgentServerOptions,
} from '../serve/agent-server.js';
export { DEFAULT_SERVER_LIMITS, type AgentServerLimits } from '../serve/server-limits.js';
export type { ConnectionLimits } from '../http-limits.js';
export { MAX_BODY_DEPTH } from '../serve/request-body.js';
