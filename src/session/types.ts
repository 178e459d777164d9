/**
 * Public types of the session engine (docs/session.md), gathered as a host reads them: the options
 * (session-options.ts), the events (session-events.ts), the session with its turns, results, state
 * and store (session-api.ts); service, network and command types live with the handlers.
 */
export type * from './session-options.js';
export type * from './session-events.js';
export type * from './session-api.js';
export type {
  CommandConfig,
  CommandExit,
  CommandInvocation,
  CommandRecord,
  CommandRunner,
} from '../handlers/command/command-config.js';
export type {
  NetworkPolicy,
  ServiceAuth,
  ServiceConfig,
} from '../handlers/endpoint/service-config.js';
