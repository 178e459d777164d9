/**
 * A local OpenAI-compatible server on 127.0.0.1 for the adapter tests: it records each request's
 * JSON body and hands the request to `answer`. Started in `beforeAll`, closed in `afterAll`.
 * `collect` reads a model's whole answer, or the ModelError it ended with.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { isModelError, type ModelError } from '../../src/models/errors.js';
import type { ModelStreamPart } from '../../src/models/types.js';

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

/** Every part of a model's answer, or the ModelError it ended with. */
export async function collect(
  stream: AsyncIterable<ModelStreamPart>,
): Promise<ModelStreamPart[] | ModelError> {
  const out: ModelStreamPart[] = [];
  try {
    for await (const p of stream) out.push(p);
  } catch (err) {
    if (isModelError(err)) return err;
    throw err;
  }
  return out;
}
