/**
 * The shared set-up of the endpoint fault tests: one misbehaving loopback server and one endpoint
 * handler whose retry waits are recorded and skipped (the deadline logic still runs), so retry
 * tests stay fast. Registers its own vitest hooks.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  createEndpointHandler,
  type EndpointHandler,
} from '../../src/handlers/endpoint/endpoint-handler.js';
import { startTestServer, type TestServer } from './test-server.js';

/** The live server and handler (available from the first `beforeAll` on), and the waits asked for. */
export interface FaultEnv {
  readonly server: TestServer;
  readonly handler: EndpointHandler;
  readonly waits: number[];
}

/** Starts the server and handler for this test file; resets both before each test. */
export function useFaultEnv(): FaultEnv {
  let server: TestServer | undefined;
  let handler: EndpointHandler | undefined;
  const waits: number[] = [];
  beforeAll(async () => {
    server = await startTestServer();
    handler = createEndpointHandler({
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
  });
  afterAll(async () => {
    await handler?.close();
    await server?.close();
  });
  beforeEach(() => {
    server?.reset();
    waits.length = 0;
  });
  return {
    get server(): TestServer {
      if (server === undefined) throw new Error('the fault server is not started yet');
      return server;
    },
    get handler(): EndpointHandler {
      if (handler === undefined) throw new Error('the handler is not created yet');
      return handler;
    },
    waits,
  };
}
