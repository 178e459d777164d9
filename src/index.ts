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

// --- session --------------------------------------------------------------------------------
export type * from './session/types.js';
