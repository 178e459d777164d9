/**
 * A local OpenAI-compatible server on 127.0.0.1 for the adapter tests: it records each request's
 * JSON body and hands the request to `answer`. Started in `beforeAll`, closed in `afterAll`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export type Answer = (
  req: IncomingMessage,
  res: ServerResponse,
  body: Record<string, unknown>,
) => void;

export interface OpenAIStub {
  /** `http://127.0.0.1:<port>/v1`, once started. */
  readonly baseURL: string;
  /** Every request body received, in order. */
  readonly bodies: Record<string, unknown>[];
}

export function openaiStub(answer: Answer): OpenAIStub {
  const stub = { baseURL: '', bodies: [] as Record<string, unknown>[] };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as Record<string, unknown>;
        stub.bodies.push(body);
        answer(req, res, body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    stub.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return stub;
}
