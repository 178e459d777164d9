/**
 * The session's imports from other areas, in one place: definition export, transform helpers and
 * handler factories. Keeps the turn loop's dependency surface visible at a glance.
 */
export { toChatTools } from '../definition/export.js';
export { applyStaticParameters } from '../transform/static-parameters.js';
export { renderMustache } from '../expressions/mustache.js';
export { applySaveRules } from '../handlers/save.js';
export { createActionHandler } from '../handlers/action-handler.js';
export { createContextHandler } from '../handlers/context-handler.js';
export { createLogHandler } from '../handlers/log-handler.js';
export {
  createEndpointHandler,
  type EndpointHandlerOptions,
} from '../handlers/endpoint/endpoint-handler.js';
export { createCommandHandler } from '../handlers/command/command-handler.js';
