/**
 * `switchboard serve <tools>`: the agent over HTTP (src/serve/agent-server.ts). The model is an
 * OpenAI-compatible endpoint (`--base-url`, `--model-name`, key from OPENAI_API_KEY), as in the
 * REPL. Listens on loopback unless `--host` says otherwise; endpoint tools may not reach private
 * networks unless `--allow-private-networks`; SIGTERM and SIGINT shut down gracefully (runs in
 * flight finish and answer, for at most `--drain-timeout`).
 */
import { parseArgs } from 'node:util';
import type { ToolSet } from '../../definition/types.js';
import { formatIssue, type DefinitionIssue } from '../../errors.js';
import { classifyHost } from '../../handlers/endpoint/ip-address.js';
import { bareHost } from '../../handlers/endpoint/network-policy.js';
import { isLoopbackHost } from '../../http-guard.js';
import { didYouMean } from '../../did-you-mean.js';
import { listenProblem } from '../listen-error.js';
import { createAgentServer, type AgentServer } from '../../serve/agent-server.js';
import { DEFAULT_SERVER_LIMITS, type AgentServerLimits } from '../../serve/server-limits.js';
import { createSession } from '../../session/create-session.js';
import type { NetworkPolicy, ServiceConfig } from '../../session/types.js';
import { EXIT, UsageError, nonEmpty, stopRequested, type CliIO } from '../io.js';
import { loadToolsFile, reportRefusedSettings } from './tools-file.js';
import { remoteModel, toolCallTransport } from './remote-model.js';
import {
  DEFAULT_OPENAI_MODEL,
  readCommands,
  readServices,
  readSystemValues,
  readVars,
} from './repl.js';

const L = DEFAULT_SERVER_LIMITS;

export const serveHelp = `Usage: switchboard serve <tools-file> [options]

Serve the tools as an agent: POST /run_agent with {"prompt", "chat_history"?, "memory"?,
"config"?} (content-type application/json) answers with {"content", "response_time_secs",
"traces", "tools_used"}.

Options:
  --host <addr>           address to listen on (default 127.0.0.1, loopback only); any
                          other address needs --token
  --token <token>         bearer token clients must send (Authorization: Bearer <token>);
                          default SWITCHBOARD_SERVE_TOKEN, which keeps it out of ps
  --allow-origin <url>    a browser origin allowed to call (exact); repeat for more.
                          Default: loopback origins on loopback, else none
  --port <n>              port (default 8787; 0 picks a free one)
  --model openai          the model (an OpenAI-compatible endpoint; the only kind served)
  --base-url <url>        its base URL (default OPENAI_BASE_URL, else api.openai.com)
  --model-name <id>       model id (default OPENAI_MODEL, else ${DEFAULT_OPENAI_MODEL})
  --text-markers          for models without native tool calls
  --json-tool-calls       for models that only write JSON replies ({"tool":…,"input":…})
  --prompt <text>         system prompt
  --vars <file|json>      session variables of every run: inline JSON or a JSON/YAML file
  --system-values <file|json>  the host's system values of every run (as for repl):
                          '{"source":…,"target":…,"timezone":…}'
  --services <file|json>  services with their auth for endpoint calls, e.g.
                          '{"clinic":{"auth":{"type":"bearer","token":"…"}}}'
  --commands <file|json>  programs command tools run, by name (docs/handlers.md)

Network policy of endpoint tools:
  --deny-private-networks   refuse loopback, private and link-local addresses (the default)
  --allow-private-networks  allow them (local development against a loopback API)
  --allow-host <host>       only these hosts (exact or *.example.com); repeat for more

Connection limits:
  --max-body <bytes>              largest request body (default 1048576)
  --headers-timeout <ms>          time to receive a request's headers (default ${L.headersTimeoutMs})
  --request-timeout <ms>          time to receive a whole request (default ${L.requestTimeoutMs})
  --keep-alive-timeout <ms>       idle keep-alive connections close (default ${L.keepAliveTimeoutMs})
  --max-requests-per-socket <n>   requests per keep-alive connection (default ${L.maxRequestsPerSocket})
  --max-connections <n>           open connections at most; slow ones make way (default ${L.maxConnections})
  --drain-timeout <ms>            shutdown waits this long for runs in flight (default ${L.drainTimeoutMs})

  -h, --help              show this help

The API key comes from OPENAI_API_KEY. SIGTERM or SIGINT: stop accepting, let runs in flight
answer (for at most --drain-timeout, then close every connection), exit 0.`;

/** Default port of `switchboard serve`. */
export const DEFAULT_SERVE_PORT = 8787;

/** CLI option of each connection limit. */
const LIMIT_OPTIONS: readonly [string, keyof AgentServerLimits][] = [
  ['headers-timeout', 'headersTimeoutMs'],
  ['request-timeout', 'requestTimeoutMs'],
  ['keep-alive-timeout', 'keepAliveTimeoutMs'],
  ['max-requests-per-socket', 'maxRequestsPerSocket'],
  ['max-connections', 'maxConnections'],
  ['drain-timeout', 'drainTimeoutMs'],
];

/** Runs the command until a shutdown signal; returns the exit code. */
export async function serveCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'model-name': { type: 'string' },
      'text-markers': { type: 'boolean' },
      'json-tool-calls': { type: 'boolean' },
      prompt: { type: 'string' },
      vars: { type: 'string' },
      'system-values': { type: 'string' },
      services: { type: 'string' },
      commands: { type: 'string' },
      'deny-private-networks': { type: 'boolean' },
      'allow-private-networks': { type: 'boolean' },
      'allow-host': { type: 'string', multiple: true },
      'max-body': { type: 'string' },
      ...Object.fromEntries(LIMIT_OPTIONS.map(([name]) => [name, { type: 'string' as const }])),
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(`${serveHelp}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('name exactly one tools file');
  if (values.model !== undefined && values.model !== 'openai')
    throw new UsageError(`--model must be openai, got ${JSON.stringify(values.model)}`);
  const toolCalls = toolCallTransport(values);
  const port = wholeNumber('port', values.port, DEFAULT_SERVE_PORT, 0, 65535);
  const host = values.host ?? '127.0.0.1';
  const token = values.token ?? nonEmpty(io.env['SWITCHBOARD_SERVE_TOKEN']);
  if (token !== undefined && token.trim() === '') throw new UsageError('--token must not be empty');
  // Refused before anything loads: a server others can reach answers only with a token.
  if (token === undefined && !isLoopbackHost(host))
    throw new UsageError(
      `serving on ${host} (not loopback) needs a bearer token (--token, or SWITCHBOARD_SERVE_TOKEN): anyone who can reach it could run the tools with your credentials`,
    );
  const maxBodyBytes = wholeNumber('max-body', values['max-body'], 1024 * 1024, 0, 2 ** 31);
  const limits: Record<string, number> = {};
  for (const [name, key] of LIMIT_OPTIONS) {
    const text = (values as Record<string, unknown>)[name];
    if (typeof text === 'string') limits[key] = wholeNumber(name, text, 0, 1, 2_147_483_647);
  }
  const networkPolicy = networkPolicyOf(values);
  const vars = await readVars(values.vars);
  const systemValues = await readSystemValues(values['system-values']);
  const services = await readServices(values.services, (line) =>
    io.stderr.write(`warning: ${line}\n`),
  );
  const commands = await readCommands(values.commands);
  const file = positionals[0] as string;

  const tools = await loadToolsFile('serve', file, io);
  if (tools === undefined) return EXIT.unusable;
  for (const line of unconfiguredServices(tools, services)) io.stderr.write(`warning: ${line}\n`);
  for (const line of unhandledActions(tools)) io.stderr.write(`warning: ${line}\n`);
  if (networkPolicy.denyPrivateNetworks === true)
    for (const line of privateEndpoints(tools)) io.stderr.write(`warning: ${line}\n`);

  const model = remoteModel({
    env: io.env,
    // Both ways to name a server, as the docs and --help give them; a local one needs no key.
    missing:
      'the model needs OPENAI_API_KEY, or a base URL (--base-url or OPENAI_BASE_URL) for a local OpenAI-compatible server',
    baseUrl: values['base-url'],
    modelName: values['model-name'],
    toolCalls,
    warn: (line) => io.stderr.write(`warning: ${line}\n`),
  });
  if ('problem' in model) {
    io.stderr.write(`switchboard serve: ${model.problem}\n`);
    return EXIT.unusable;
  }
  // The sessions' own warnings (every request makes one) go to stderr once each, in the command's
  // format; an unconfigured service the command has already named above is not said twice.
  const warned = new Set<string>();
  const onWarning = (issue: DefinitionIssue): void => {
    if (issue.code === 'service_not_configured' || warned.has(issue.message)) return;
    warned.add(issue.message);
    io.stderr.write(`warning: ${formatIssue(issue)}\n`);
  };
  const sessionOptions = {
    tools,
    model,
    vars,
    onWarning,
    ...(systemValues === undefined ? {} : { systemValues }),
    networkPolicy,
    ...(services === undefined ? {} : { services }),
    ...(commands === undefined ? {} : { commands }),
    ...(values.prompt === undefined ? {} : { prompt: values.prompt }),
  };
  // Every request builds a session from these options: refuse them now, not in every answer.
  try {
    await createSession(sessionOptions).close();
  } catch (error) {
    reportRefusedSettings('serve', error, io);
    return EXIT.unusable;
  }
  let agent: AgentServer;
  try {
    agent = createAgentServer({
      ...sessionOptions,
      ...limits,
      maxBodyBytes,
      ...(token === undefined ? {} : { token }),
      ...(values['allow-origin'] === undefined ? {} : { allowedOrigins: values['allow-origin'] }),
      onError: (error) =>
        io.stderr.write(`run failed: ${error instanceof Error ? error.message : String(error)}\n`),
    });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    // The library names its options; say the command's.
    let message = error.message;
    for (const [name, key] of LIMIT_OPTIONS) message = message.replaceAll(key, `--${name}`);
    throw new UsageError(message);
  }
  let address;
  try {
    address = await agent.listen({ host, port });
  } catch (error) {
    const problem = listenProblem(error, '--port <n>, or --port 0 for a free one');
    if (problem === undefined) throw error;
    await agent.close();
    io.stderr.write(`switchboard serve: ${problem}\n`);
    return EXIT.unusable;
  }
  io.stdout.write(`listening on http://${address.address}:${address.port}/run_agent\n`);

  await stopRequested(io);
  io.stderr.write(`shutting down (${agent.inFlight} run(s) in flight)\n`);
  await agent.close();
  return EXIT.ok;
}

/** `--deny-private-networks` (default) or `--allow-private-networks`, and `--allow-host`. */
function networkPolicyOf(values: {
  readonly 'deny-private-networks'?: boolean;
  readonly 'allow-private-networks'?: boolean;
  readonly 'allow-host'?: string[];
}): NetworkPolicy {
  if (values['deny-private-networks'] === true && values['allow-private-networks'] === true)
    throw new UsageError('--deny-private-networks and --allow-private-networks contradict');
  const hosts = values['allow-host'];
  for (const host of hosts ?? [])
    if (!/^(\*\.)?[A-Za-z0-9.:[\]-]+$/.test(host))
      throw new UsageError(`--allow-host: ${JSON.stringify(host)} is not a host name`);
  return {
    denyPrivateNetworks: values['allow-private-networks'] !== true,
    ...(hosts === undefined ? {} : { allowedHosts: hosts }),
  };
}

/** Services that tools name but nothing configures: their calls would all fail. */
function unconfiguredServices(
  tools: ToolSet,
  services: Readonly<Record<string, ServiceConfig>> | undefined,
): string[] {
  const byService = new Map<string, string[]>();
  for (const tool of tools.tools.values()) {
    const name = tool.service;
    if (name === undefined || (services !== undefined && Object.hasOwn(services, name))) continue;
    byService.set(name, [...(byService.get(name) ?? []), tool.name]);
  }
  return [...byService].map(
    ([name, names]) =>
      `service "${name}" (named by ${names.join(', ')}) is not configured${didYouMean(name, Object.keys(services ?? {}))}; give it with --services, or its calls fail with not_available`,
  );
}

/**
 * Action tools with no `result` of their own: `serve` has no host code to perform them, so the
 * model is shown them and every call answers `not_available`. Said at start, as `mcp` says which
 * action tools it does not serve, so a tools file written for a phone bot (hang-up, transfer) is
 * not found out by a failing call.
 */
function unhandledActions(tools: ToolSet): string[] {
  const names = [...tools.tools.values()]
    .filter((tool) => tool.type === 'action' && !tool.hasResult)
    .map((tool) => tool.name);
  if (names.length === 0) return [];
  return [
    `action tool(s) ${names.join(', ')} have no host handler in serve: every call answers not_available; give a definition a "result" for a fixed answer, or serve from your own process with createAgentServer({ actions })`,
  ];
}

/**
 * Endpoint tools whose URL names a private address or `localhost`: under the default policy every
 * call of theirs is refused, which a developer trying a local API should learn at start.
 */
function privateEndpoints(tools: ToolSet): string[] {
  const out: string[] = [];
  for (const tool of tools.tools.values()) {
    const url = tool.endpoint?.url;
    if (url === undefined) continue;
    let host: string;
    try {
      host = bareHost(new URL(url.replace(/\{[^{}]*\}/g, 'x')).hostname);
    } catch {
      continue;
    }
    const kind = classifyHost(host);
    const isPrivate = kind.kind === 'ip' ? kind.private : /(^|\.)localhost\.?$/i.test(host);
    if (isPrivate)
      out.push(
        `tool ${tool.name} calls ${host}, a private address: refused (policy_denied) unless --allow-private-networks`,
      );
  }
  return out;
}

function wholeNumber(
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(
      `--${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`,
    );
  return n;
}
