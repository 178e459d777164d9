/**
 * `switchboard mcp <tools>`: the tools as an MCP server (src/mcp/server.ts), over stdio (the
 * default: stdout carries the protocol, so everything else goes to stderr) or Streamable HTTP
 * (`--http HOST:PORT`). Action tools need `--actions MODULE`; without a handler they are not
 * listed, and the command says so at start.
 */
import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { formatIssue } from '../../errors.js';
import type { ActionHandler } from '../../handlers/types.js';
import { createMcpServer, type McpToolServer } from '../../mcp/server.js';
import { mcpStdioTransport } from '../../mcp/server-stdio.js';
import { EXIT, UsageError, nonEmpty, parseJsonOption, stopRequested, type CliIO } from '../io.js';
import { listenProblem } from '../listen-error.js';
import { loadToolsFile, reportRefusedSettings } from './tools-file.js';
import { readCommands, readServices } from './repl.js';
import { version } from '../version.js';

export const mcpHelp = `Usage: switchboard mcp <tools-file> [options]

Serve the tools over the Model Context Protocol: over stdio (the default; for a client that
starts this command) or over Streamable HTTP at http://HOST:PORT/mcp.

Options:
  --http <host:port>      serve Streamable HTTP instead of stdio (e.g. 127.0.0.1:8788;
                          port 0 picks a free one)
  --token <token>         bearer token HTTP clients must send (default SWITCHBOARD_MCP_TOKEN);
                          required for an address that is not loopback
  --allow-origin <origin> a browser origin allowed to call over HTTP; repeat for more
                          (default: loopback origins when bound to loopback)
  --actions <module>      a module exporting action handlers by tool name (named function
                          exports, or a default export object of them); action tools without
                          a handler are not served
  --services <file|json>  services with their auth for endpoint calls
  --commands <file|json>  programs command tools run, by name (docs/handlers.md), e.g.
                          '{"synapse": {"path": "/usr/local/bin/synapse"}}'
  --vars <json>           initial variables of every MCP session
  --language <tag>        initial language of every MCP session (default en-US)
  --allow-private-networks  let endpoint tools reach loopback and private addresses
  --allow-host <host>     only these hosts for endpoint tools; repeat for more
  -h, --help              show this help

Each MCP session (the stdio connection, or one HTTP session) has its own language and
variables. SIGTERM or SIGINT (or stdin closing, over stdio) stops the server.`;

/** Runs the server until stopped; returns the exit code. */
export async function mcpCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      http: { type: 'string' },
      token: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      actions: { type: 'string' },
      services: { type: 'string' },
      commands: { type: 'string' },
      vars: { type: 'string' },
      language: { type: 'string' },
      'allow-private-networks': { type: 'boolean' },
      'allow-host': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(`${mcpHelp}\n`);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('name exactly one tools file');
  const http = values.http === undefined ? undefined : hostPort(values.http);
  const token = values.token ?? nonEmpty(io.env['SWITCHBOARD_MCP_TOKEN']);
  if (http === undefined && (token !== undefined || values['allow-origin'] !== undefined))
    throw new UsageError('--token and --allow-origin apply to --http only');
  const vars = (parseJsonOption('vars', values.vars) ?? {}) as Record<string, unknown>;
  const services = await readServices(values.services, (line) =>
    io.stderr.write(`warning: ${line}\n`),
  );
  const commands = await readCommands(values.commands);
  const actions = values.actions === undefined ? undefined : await readActions(values.actions);
  const file = positionals[0] as string;
  const tools = await loadToolsFile('mcp', file, io);
  if (tools === undefined) return EXIT.unusable;

  let server: McpToolServer;
  try {
    server = createMcpServer({
      tools,
      name: 'switchboard',
      version: version(),
      vars,
      networkPolicy: {
        denyPrivateNetworks: values['allow-private-networks'] !== true,
        ...(values['allow-host'] === undefined ? {} : { allowedHosts: values['allow-host'] }),
      },
      ...(actions === undefined ? {} : { actions }),
      ...(services === undefined ? {} : { services }),
      ...(commands === undefined ? {} : { commands }),
      ...(values.language === undefined ? {} : { language: values.language }),
      onWarning: (w) => io.stderr.write(`warning: ${formatIssue(w)}\n`),
    });
  } catch (error) {
    reportRefusedSettings('mcp', error, io);
    return EXIT.unusable;
  }
  const unserved = server.unservedActions;
  if (unserved.length > 0)
    io.stderr.write(
      `switchboard mcp: action tools not served (no handler${actions === undefined ? '; give --actions MODULE' : ' in --actions'}): ${unserved.join(', ')}\n`,
    );

  const stopped = stopRequested(io, (stop) => {
    // Over stdio the client ends the server by closing its input.
    if (http === undefined) io.stdin.once('end', stop);
  });
  if (http === undefined) {
    await server.connect(mcpStdioTransport({ stdin: readableOf(io), stdout: writableOf(io) }));
    io.stderr.write(`switchboard mcp: serving ${server.tools.tools.size} tool(s) over stdio\n`);
  } else {
    try {
      const listener = await server.listen({
        host: http.host,
        port: http.port,
        ...(token === undefined ? {} : { token }),
        ...(values['allow-origin'] === undefined ? {} : { allowedOrigins: values['allow-origin'] }),
      });
      io.stdout.write(`listening on ${listener.url}\n`);
    } catch (error) {
      const problem = listenProblem(error, `--http ${http.host}:<n>`);
      if (problem !== undefined) {
        await server.close();
        io.stderr.write(`switchboard mcp: ${problem}\n`);
        return EXIT.unusable;
      }
      if (!(error instanceof TypeError)) throw error;
      // The library names its option; say the command's.
      throw new UsageError(error.message.replace('a bearer token', 'a bearer token (--token)'));
    }
  }
  await stopped;
  await server.close();
  return EXIT.ok;
}

/** `HOST:PORT` (`[::1]:8788` for IPv6). */
function hostPort(text: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(text);
  const port = m === null ? NaN : Number(m[2]);
  if (m === null || port > 65535)
    throw new UsageError(
      `--http must be HOST:PORT (e.g. 127.0.0.1:8788), got ${JSON.stringify(text)}`,
    );
  const host = m[1]!;
  return { host: host.startsWith('[') ? host.slice(1, -1) : host, port };
}

/** `--actions`: the module's function exports (or its default export object's), by tool name. */
async function readActions(path: string): Promise<Map<string, ActionHandler>> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(
      `--actions: cannot load ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const fromDefault =
    Object.hasOwn(module, 'default') &&
    typeof module['default'] === 'object' &&
    module['default'] !== null
      ? (module['default'] as Record<string, unknown>)
      : undefined;
  // Handlers come from one place: named exports beside a default object would be ignored.
  const named = Object.keys(module).filter((name) => name !== 'default');
  if (fromDefault !== undefined && named.length > 0)
    throw new UsageError(
      `--actions: ${path} has a default export object and named exports (${named.join(', ')}): handlers are read from one of them; put them all in one`,
    );
  const source = fromDefault ?? module;
  const handlers = new Map<string, ActionHandler>();
  for (const name of Object.keys(source)) {
    if (fromDefault === undefined && name === 'default') continue;
    const value = source[name];
    if (typeof value !== 'function')
      throw new UsageError(
        `--actions: export ${JSON.stringify(name)} of ${path} is not a function`,
      );
    handlers.set(name, value as ActionHandler);
  }
  if (handlers.size === 0) throw new UsageError(`--actions: ${path} exports no handler`);
  return handlers;
}

/** The protocol's input stream: the process's stdin, or a readable over the injected one. */
function readableOf(io: CliIO): Readable {
  return io.stdin instanceof Readable ? io.stdin : new Readable().wrap(io.stdin);
}

/** The protocol's output stream: the process's stdout, or a writable over the injected one. */
function writableOf(io: CliIO): Writable {
  if (io.stdout instanceof Writable) return io.stdout;
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      io.stdout.write(chunk.toString());
      done();
    },
  });
}
