/**
 * An HTTP face for {@link runAgent} (`switchboard serve`): `POST /run_agent` with the minimal agent
 * input `{ prompt, chat_history?, memory?, config? }` answers with the minimal agent output.
 * Built on node:http only (a one-route server needs no framework). Each request is its own run,
 * so requests proceed concurrently and one request's failure never ends the server. Bad bodies
 * get 4xx with a JSON error naming the field (request-body.ts); slow clients are cut off and
 * connections capped (server-limits.ts); a client that goes away ends its run; `close()` stops
 * accepting and lets in-flight runs finish, for a bounded time (graceful shutdown).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ToolSet } from '../definition/types.js';
import { isModelError } from '../models/errors.js';
import { SessionStoreError } from '../session/coordination.js';
import { AgentConfigError } from '../agent-format/agent-config.js';
import { runAgent, type RunAgentOptions } from '../agent-format/run-agent.js';
import { checkBind, requestRefusal, type RequestGuard } from '../http-guard.js';
import { HttpProblem, checkContentType, parseAgentRequest, readBody } from './request-body.js';
import { checkSessionOptions } from '../session/check-options.js';
import { checkServerOptions } from './check-server-options.js';
import { limitConnections, serverOptions } from '../http-limits.js';
import { resolveServerLimits, type AgentServerLimits } from './server-limits.js';

/** Default cap on a request body, bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * Options of {@link createAgentServer}: runAgent's options (loaded tools), connection limits and
 * the body cap. `networkPolicy` defaults to `{ denyPrivateNetworks: true }`: a server others
 * reach must not let them reach its loopback or private network through endpoint tools; pass
 * `networkPolicy: {}` to allow every address (local development).
 */
export interface AgentServerOptions
  extends
    Omit<
      RunAgentOptions,
      'tools' | 'chatHistory' | 'chat_history' | 'memory' | 'config' | 'signal'
    >,
    AgentServerLimits {
  readonly tools: ToolSet;
  /** Largest accepted body. Default {@link DEFAULT_MAX_BODY_BYTES} (1 MiB). */
  readonly maxBodyBytes?: number;
  /** Called with each request's failure that is not the client's fault (for logs). */
  readonly onError?: (error: unknown) => void;
  /**
   * Bearer token every request must carry (`Authorization: Bearer <token>`; else 401). Required
   * to listen on an address that is not loopback: anyone who can reach the server could run the
   * tools with the host's credentials and model key.
   */
  readonly token?: string;
  /**
   * Browser origins allowed to call (exact, e.g. `https://app.example.com`); a request without an
   * `Origin` header (any non-browser client) is not affected. Default: the loopback origins on a
   * loopback address, else none.
   */
  readonly allowedOrigins?: readonly string[];
}

/** A running agent server. */
export interface AgentServer {
  readonly server: Server;
  /** Listens; resolves with the bound address. Default host 127.0.0.1 (loopback), port 0. */
  listen(options?: { readonly host?: string; readonly port?: number }): Promise<AddressInfo>;
  /** Requests in flight (reading their body or running). */
  readonly inFlight: number;
  /**
   * Stops accepting, waits up to `drainTimeoutMs` for requests in flight to answer, then closes
   * every connection (ending runs still going, as if their clients had gone).
   */
  close(): Promise<void>;
}

/**
 * Creates (does not start) the server. Throws a RangeError for a bad limit, body cap or
 * `onError`, and a DefinitionError for session options createSession would refuse.
 */
export function createAgentServer(options: AgentServerOptions): AgentServer {
  // Checked before anything is built: each request would otherwise fail alike, as a 500.
  const {
    maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
    onError,
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs,
    maxRequestsPerSocket,
    maxConnections,
    drainTimeoutMs,
    token,
    allowedOrigins,
    ...rest
  } = checkServerOptions(options);
  const runOptions = {
    ...rest,
    networkPolicy: rest.networkPolicy ?? { denyPrivateNetworks: true },
  };
  checkSessionOptions(runOptions);
  if (token !== undefined && token.trim() === '')
    throw new TypeError('token must be a non-empty string');
  const guard: RequestGuard = { token, origins: new Set(allowedOrigins ?? []) };
  const limits = resolveServerLimits({
    ...(headersTimeoutMs === undefined ? {} : { headersTimeoutMs }),
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
    ...(keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeoutMs }),
    ...(maxRequestsPerSocket === undefined ? {} : { maxRequestsPerSocket }),
    ...(maxConnections === undefined ? {} : { maxConnections }),
    ...(drainTimeoutMs === undefined ? {} : { drainTimeoutMs }),
  });
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | undefined;

  const handle = async (
    req: IncomingMessage,
    res: ServerResponse,
    signal: AbortSignal,
  ): Promise<void> => {
    // Before anything is read: a DNS-rebinding page, a foreign origin, a missing token.
    const refused = requestRefusal(guard, req.headers, req.socket.localAddress);
    if (refused !== undefined) {
      if (refused.status === 401) res.setHeader('www-authenticate', 'Bearer');
      throw new HttpProblem(refused.status, refused.code, refused.message);
    }
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/run_agent')
      throw new HttpProblem(404, 'not_found', `no route ${path ?? ''}; use POST /run_agent`);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      throw new HttpProblem(405, 'method_not_allowed', 'use POST');
    }
    checkContentType(req);
    const body = parseAgentRequest(await readBody(req, maxBodyBytes));
    const output = await runAgent(body.prompt, {
      ...runOptions,
      ...(body.history === undefined ? {} : { chatHistory: body.history }),
      ...(body.memory === undefined ? {} : { memory: body.memory }),
      ...(body.config === undefined ? {} : { config: body.config }),
      signal,
    });
    if (closing) res.setHeader('connection', 'close');
    send(res, 200, output);
  };

  const server = createServer(serverOptions(limits), (req, res) => {
    inFlight++;
    const controller = new AbortController();
    // The client went away before its answer: end the run (nobody will read it).
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    handle(req, res, controller.signal)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const problem = toProblem(error);
        if (problem.status >= 500) onError?.(error);
        // An unread or refused body: closing is cheaper than draining it.
        if (UNREAD.has(problem.status) || closing) res.setHeader('connection', 'close');
        // Only a store outage is 503; its client reconnects by itself, with back-off.
        if (problem.status === 503) res.setHeader('retry-after', '1');
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
  // Slow clients cut off, connections capped (oldest idle or still sending goes first).
  const connections = limitConnections(server, limits);

  return {
    server,
    get inFlight() {
      return inFlight;
    },
    listen: ({ host = '127.0.0.1', port = 0 } = {}) =>
      new Promise((resolve, reject) => {
        checkBind('serving agents', host, token);
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve(server.address() as AddressInfo);
        });
      }),
    close: async () => {
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), limits.drainTimeoutMs);
      });
      try {
        if (inFlight > 0) await Promise.race([new Promise<void>((r) => (drained = r)), late]);
        // Connections without a request in flight (idle, or still sending headers) end now, after
        // flushing what was written to them; a drained server never waits on a slow client.
        for (const socket of connections.sockets)
          if (!connections.busy(socket)) socket.end(() => socket.destroy());
        if ((await Promise.race([closed, late])) === 'late') server.closeAllConnections();
        await closed;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Store errors that say the store could not be used, rather than that a host misused it. */
const STORE_OUTAGE: ReadonlySet<string> = new Set(['store_failed', 'lease_lost']);
const STORE_UNAVAILABLE = 'the session store is unavailable; try again (details in the server log)';

/** Answers given before the body was read (refused, too large, not JSON). */
const UNREAD = new Set([401, 403, 413, 415]);

function toProblem(error: unknown): HttpProblem {
  if (error instanceof HttpProblem) return error;
  if (error instanceof AgentConfigError)
    return new HttpProblem(400, error.code, error.message, error.path);
  if (isModelError(error)) return new HttpProblem(502, 'model_error', error.message);
  // The session store (Redis) down, frozen or full: the service is unavailable for now, not
  // broken, and a client may retry. The store's reason stays in the server log: it names the
  // session, the store's own wording and, for a refused command, Redis's.
  if (error instanceof SessionStoreError && STORE_OUTAGE.has(error.code))
    return new HttpProblem(503, error.code, STORE_UNAVAILABLE);
  return new HttpProblem(500, 'internal', 'the run failed; see the server log');
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
