/**
 * An HTTP face for {@link runAgent} (`switchboard serve`): `POST /run_agent` with the minimal agent
 * input `{ prompt, chat_history?, memory?, config? }` answers with the minimal agent output.
 * Built on node:http only (a one-route server needs no framework). Each request is its own run,
 * so requests proceed concurrently and one request's failure never ends the server. Bad bodies
 * get 400 with a JSON error naming the field, oversized ones 413; `close()` stops accepting and
 * lets in-flight runs finish (graceful shutdown).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import type { ToolSet } from '../definition/types.js';
import { isModelError } from '../models/errors.js';
import { AgentConfigError } from '../session/agent-config.js';
import { runAgent, type RunAgentOptions } from '../session/run-agent.js';

/** Default cap on a request body, bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Options of {@link createAgentServer}: runAgent's options (loaded tools) plus server limits. */
export interface AgentServerOptions extends Omit<
  RunAgentOptions,
  'tools' | 'chatHistory' | 'chat_history' | 'memory' | 'config'
> {
  readonly tools: ToolSet;
  /** Largest accepted body. Default {@link DEFAULT_MAX_BODY_BYTES} (1 MiB). */
  readonly maxBodyBytes?: number;
  /** Called with each request's failure that is not the client's fault (for logs). */
  readonly onError?: (error: unknown) => void;
}

/** A running agent server. */
export interface AgentServer {
  readonly server: Server;
  /** Listens; resolves with the bound address. Default host 127.0.0.1 (loopback), port 0. */
  listen(options?: { readonly host?: string; readonly port?: number }): Promise<AddressInfo>;
  /** Runs in flight. */
  readonly inFlight: number;
  /** Stops accepting, waits for runs in flight to answer, then closes every connection. */
  close(): Promise<void>;
}

const historySchema = z.union(
  [z.string(), z.array(z.string()), z.array(z.object({ role: z.string(), content: z.string() }))],
  { error: 'expected a string, a list of lines, or a list of { role, content }' },
);

const bodySchema = z.object(
  {
    prompt: z.string({ error: 'expected a string' }),
    chat_history: historySchema.optional(),
    chatHistory: historySchema.optional(),
    memory: z
      .union([z.string(), z.array(z.string()), z.record(z.string(), z.unknown())], {
        error: 'expected a string, a list of strings, or an object',
      })
      .optional(),
    config: z.record(z.string(), z.unknown(), { error: 'expected an object' }).optional(),
  },
  { error: 'expected a JSON object { prompt, chat_history?, memory?, config? }' },
);

/** Thrown while reading a request that cannot be served; becomes its JSON answer. */
class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Creates (does not start) the server. */
export function createAgentServer(options: AgentServerOptions): AgentServer {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { maxBodyBytes: _m, onError, ...runOptions } = options;
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/run_agent')
      throw new HttpProblem(404, 'not_found', `no route ${path ?? ''}; use POST /run_agent`);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      throw new HttpProblem(405, 'method_not_allowed', 'use POST');
    }
    const text = await readBody(req, maxBodyBytes);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new HttpProblem(
        400,
        'invalid_json',
        `the body is not JSON: ${(error as Error).message}`,
      );
    }
    const parsed = bodySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = (issue?.path ?? []).map(String).join('.');
      throw new HttpProblem(
        400,
        'invalid_request',
        field === ''
          ? (issue?.message ?? 'invalid body')
          : `${field}: ${issue?.message ?? 'invalid'}`,
        field === '' ? undefined : field,
      );
    }
    const body = parsed.data;
    const history = body.chat_history ?? body.chatHistory;
    const output = await runAgent(body.prompt, {
      ...runOptions,
      ...(history === undefined ? {} : { chatHistory: history }),
      ...(body.memory === undefined ? {} : { memory: body.memory }),
      ...(body.config === undefined ? {} : { config: body.config }),
    });
    if (closing) res.setHeader('connection', 'close');
    send(res, 200, output);
  };

  const server = createServer((req, res) => {
    inFlight++;
    handle(req, res)
      .catch((error: unknown) => {
        const problem = toProblem(error);
        if (problem.status >= 500) onError?.(error);
        if (problem.status === 413 || closing) res.setHeader('connection', 'close');
        send(res, problem.status, {
          error: {
            code: problem.code,
            message: problem.message,
            ...(problem.field === undefined ? {} : { field: problem.field }),
          },
        });
      })
      .finally(() => {
        inFlight--;
        if (inFlight === 0) drained?.();
      });
  });

  return {
    server,
    get inFlight() {
      return inFlight;
    },
    listen: ({ host = '127.0.0.1', port = 0 } = {}) =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server.address() as AddressInfo);
        });
      }),
    close: async () => {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
      server.closeIdleConnections();
      await closed;
    },
  };
}

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof AgentConfigError)
    return new HttpProblem(400, error.code, error.message, error.path);
  if (isModelError(error)) return new HttpProblem(502, 'model_error', error.message);
  return new HttpProblem(500, 'internal', 'the run failed; see the server log');
}

/** Reads the body as UTF-8 text, refusing it (413) as soon as it passes `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem(413, 'body_too_large', `the body is larger than ${limit} bytes`);
}

function send(res: ServerResponse, status: number, value: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
