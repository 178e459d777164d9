import { afterAll, beforeAll } from 'vitest';
import { createActionHandler } from '../../src/handlers/action-handler.js';
import { createContextHandler } from '../../src/handlers/context-handler.js';
import { createEndpointHandler } from '../../src/handlers/endpoint/endpoint-handler.js';
import { createLogHandler } from '../../src/handlers/log-handler.js';
import { createCommandHandler } from '../../src/handlers/command/command-handler.js';
import type { ToolDefinition } from '../../src/definition/types.js';
import { scriptCommand } from './command/command-helpers.js';
import type { ActionHandler } from '../../src/handlers/types.js';
import { runHandlerContract } from './handler.contract.js';
import { makeTool } from './helpers.js';
import { json, startTestServer, type TestServer } from './test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  server.route('/ok', json(200, { ok: true }));
  server.route('/missing', json(404, { error: 'nope' }));
  server.route('/silent', () => undefined);
});
afterAll(async () => {
  await server.close();
});

runHandlerContract({
  kind: 'endpoint',
  create: () => createEndpointHandler(),
  success: () => ({
    tool: makeTool({ endpoint: { url: `${server.origin}/ok` } }),
    args: { q: 'a' },
  }),
  failure: () => ({
    tool: makeTool({ endpoint: { url: `${server.origin}/missing` } }),
    args: {},
    code: 'http_status',
  }),
  slow: () => ({
    tool: makeTool({ endpoint: { url: `${server.origin}/silent`, timeoutSecs: 5 } }),
    args: {},
  }),
});

const actions = new Map<string, ActionHandler>([
  ['ok_action', () => ({ done: true })],
  [
    'throwing_action',
    () => {
      throw new Error('boom');
    },
  ],
  ['slow_action', () => new Promise((resolve) => setTimeout(resolve, 3000))],
]);
runHandlerContract({
  kind: 'action',
  create: () => createActionHandler({ actions }),
  success: () => ({ tool: makeTool({ name: 'ok_action' }), args: { a: 1 } }),
  failure: () => ({ tool: makeTool({ name: 'throwing_action' }), args: {}, code: 'handler_error' }),
  slow: () => ({ tool: makeTool({ name: 'slow_action' }), args: {} }),
});

runHandlerContract({
  kind: 'context',
  create: () => createContextHandler(),
  success: () => ({
    tool: makeTool({ type: 'context' }),
    args: { language: 'es-us', say: 'Hola' },
  }),
  failure: () => ({
    tool: makeTool({ type: 'context' }),
    args: { language: 'not a tag!' },
    code: 'invalid_language',
  }),
});

runHandlerContract({
  kind: 'log',
  create: () => createLogHandler(),
  success: () => ({ tool: makeTool({ type: 'log' }), args: { note: 'x' } }),
  // A log tool cannot fail on its own; an aborted call is its one typed error.
  failure: () => ({
    tool: makeTool({ type: 'log' }),
    args: {},
    code: 'cancelled',
    signal: AbortSignal.abort(),
  }),
});

/** A command tool running the host's command `name` (a test script). */
function commandTool(name: string): ToolDefinition {
  return {
    ...makeTool({ type: 'command' }),
    command: { name, subcommand: [], positional: [], flagCase: 'as_written', timeoutSecs: 20 },
  };
}
runHandlerContract({
  kind: 'command',
  create: () =>
    createCommandHandler({
      commands: {
        echo: scriptCommand('echo-argv.mjs'),
        fail: scriptCommand('fail.mjs'),
        sleep: scriptCommand('sleep.mjs'),
      },
    }),
  success: () => ({ tool: commandTool('echo'), args: { q: 'a' } }),
  failure: () => ({ tool: commandTool('fail'), args: {}, code: 'command_failed' }),
  slow: () => ({ tool: commandTool('sleep'), args: {} }),
});
