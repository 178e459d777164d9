/**
 * switchboard — the public API. Each area adds its exports in its own section below.
 */

// --- errors ---------------------------------------------------------------------------------
export * from './errors.js';

// --- definition (load, lint, export) --------------------------------------------------------
export type * from './definition/types.js';
export type * from './definition/validator-types.js';
export { loadTools, readToolsFile, parseDocument, type LoadToolsOptions } from './definition/load.js';
export {
  toChatTools,
  toResponsesTools,
  toRealtimeTools,
  type ExportView,
  type ResponsesFunctionTool,
  type RealtimeFunctionTool,
} from './definition/export.js';
export { checkEndpointUrl, type EndpointUrlCheck } from './definition/endpoint-url.js';

// --- transform ------------------------------------------------------------------------------
export type * from './transform/types.js';

// --- handlers -------------------------------------------------------------------------------
export type * from './handlers/types.js';

// --- models ---------------------------------------------------------------------------------
export type * from './models/types.js';
export { ModelError, isModelError, type ModelErrorCode } from './models/errors.js';

// --- session --------------------------------------------------------------------------------
export type * from './session/types.js';
export { createSession, restoreSession, resumeSession, SessionEndedError } from './session/create-session.js';
export { DEFAULT_MAX_TOOL_ROUNDS } from './session/run-turn.js';
export { DEFAULT_MAX_ARGUMENT_BYTES, DEFAULT_MAX_ARGUMENT_DEPTH } from './session/argument-limits.js';
export { DEFAULT_BRIDGE_THRESHOLD_SECS } from './session/bridge.js';
