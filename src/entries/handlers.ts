/**
 * switchboard/handlers — the engine's parts for hosts composing their own pipeline: the handlers
 * (endpoint, action, context, log, command), the secret set, connection pools, call policies and journaling
 * (docs/handlers.md).
 */
// --- handlers -------------------------------------------------------------------------------
export type * from '../handlers/types.js';
export {
  createEndpointHandler,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
} from '../handlers/endpoint/endpoint-handler.js';
export type {
  EndpointHandler,
  EndpointHandlerOptions,
} from '../handlers/endpoint/endpoint-handler.js';
export type { HostResolver } from '../handlers/endpoint/network-policy.js';
export { SecretSet, MIN_SCRUB_LENGTH } from '../handlers/endpoint/secret-set.js';
export type { Abortable } from '../handlers/endpoint/deadline.js';
export { createActionHandler, DEFAULT_ACTION_TIMEOUT_SECS } from '../handlers/action-handler.js';
export type { ActionHandlerOptions } from '../handlers/action-handler.js';
export {
  createContextHandler,
  canonicalLanguage,
  MAX_SAY_CHARS,
} from '../handlers/context-handler.js';
export type { ContextHandlerOptions } from '../handlers/context-handler.js';
export { createLogHandler } from '../handlers/log-handler.js';
export type { LogHandlerOptions } from '../handlers/log-handler.js';
export { applySaveRules, checkSaveExpression } from '../handlers/save.js';
export { createCommandHandler } from '../handlers/command/command-handler.js';
export type { CommandHandlerOptions } from '../handlers/command/command-handler.js';
export { spawnRunner } from '../handlers/command/spawn-runner.js';
export { buildArgv, flagName, type ArgvResult } from '../handlers/command/argv.js';
export {
  DEFAULT_MAX_STDERR_BYTES,
  DEFAULT_MAX_STDOUT_BYTES,
  type CommandConfig,
  type CommandExit,
  type CommandInvocation,
  type CommandRecord,
  type CommandRunner,
} from '../handlers/command/command-config.js';

export {
  runWithPolicy,
  effectivePolicy,
  type CallPolicy,
  type RunWithPolicyOptions,
} from '../session/call-policy.js';
export { turnLimits, type TurnLimits } from '../session/turn-limits.js';
export { isJournaled } from '../session/execute-tool-call.js';
export { checkEndpointUrl, type EndpointUrlCheck } from '../definition/endpoint-url.js';
