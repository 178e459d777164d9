/**
 * `switchboard serve <tools>`: the agent over HTTP (src/serve/agent-server.ts). The model is an
 * OpenAI-compatible endpoint (`--base-url`, `--model-name`, key from OPENAI_API_KEY), as in the
 * REPL. Listens on loopback unless `--host` says otherwise; SIGTERM and SIGINT shut down
 * gracefully (runs in flight finish and answer).
 */
import { parseArgs } from 'node:util';
import { loadTools } from '../../definition/load.js';
import type { ToolSet } from '../../definition/types.js';
import { DefinitionError, formatIssue } from '../../errors.js';
import { openaiModel } from '../../models/openai.js';
import { withTextMarkers } from '../../models/text-markers.js';
import { createAgentServer } from '../../serve/agent-server.js';
import { EXIT, UsageError, parseJsonOption, type CliIO } from '../io.js';
import { DEFAULT_OPENAI_MODEL } from './repl.js';

export const serveHelp = `Usage: switchboard serve <tools-file> [options]

Serve the tools as an agent: POST /run_agent with {"prompt", "chat_history"?, "memory"?,
"config"?} answers with {"content", "response_time_secs", "traces", "tools_used"}.

Options:
  --host <addr>           address to listen on (default 127.0.0.1, loopback only)
  --port <n>              port (default 8787; 0 picks a free one)
  --model openai          the model (an OpenAI-compatible endpoint; the only kind served)
  --base-url <url>        its base URL (default OPENAI_BASE_URL, else api.openai.com)
  --model-name <id>       model id (default OPENAI_MODEL, else ${DEFAULT_OPENAI_MODEL})
  --text-markers          for models without native tool calls
  --prompt <text>         system prompt
  --vars <json>           session variables of every run
  --max-body <bytes>      largest request body (default 1048576)
  -h, --help              show this help

The API key comes from OPENAI_API_KEY. SIGTERM or SIGINT: stop accepting, let runs in flight
answer, exit 0.`;

/** Default port of `switchboard serve`. */
export const DEFAULT_SERVE_PORT = 8787;

/** Runs the command until a shutdown signal; returns the exit code. */
export async function serveCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'model-name': { type: 'string' },
      'text-markers': { type: 'boolean' },
      prompt: { type: 'string' },
      vars: { type: 'string' },
      'max-body': { type: 'string' },
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
  const port = wholeNumber('port', values.port, DEFAULT_SERVE_PORT, 65535);
  const maxBodyBytes = wholeNumber('max-body', values['max-body'], 1024 * 1024, 2 ** 31);
  const vars = (parseJsonOption('vars', values.vars) ?? {}) as Record<string, unknown>;
  const file = positionals[0] as string;

  let tools: ToolSet;
  try {
    tools = await loadTools(file, { file });
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    io.stderr.write(`switchboard serve: ${file} has errors:\n`);
    for (const i of error.issues) io.stderr.write(`  ${i.severity} ${formatIssue(i)}\n`);
    return EXIT.unusable;
  }
  for (const w of tools.warnings) io.stderr.write(`warning: ${formatIssue(w)}\n`);

  const key = io.env['OPENAI_API_KEY'];
  const baseURL = values['base-url'] ?? io.env['OPENAI_BASE_URL'];
  if ((key === undefined || key === '') && (baseURL === undefined || baseURL === '')) {
    io.stderr.write('switchboard serve: the model needs OPENAI_API_KEY or --base-url\n');
    return EXIT.unusable;
  }
  const remote = openaiModel({
    model: values['model-name'] ?? (io.env['OPENAI_MODEL'] || DEFAULT_OPENAI_MODEL),
    apiKey: key !== undefined && key !== '' ? key : 'not-needed',
    ...(baseURL !== undefined && baseURL !== '' ? { baseURL } : {}),
  });
  const agent = createAgentServer({
    tools,
    model: values['text-markers'] === true ? withTextMarkers(remote) : remote,
    vars,
    maxBodyBytes,
    ...(values.prompt === undefined ? {} : { prompt: values.prompt }),
    onError: (error) =>
      io.stderr.write(`run failed: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  const address = await agent.listen({ host: values.host ?? '127.0.0.1', port });
  io.stdout.write(`listening on http://${address.address}:${address.port}/run_agent\n`);

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  io.stderr.write(`shutting down (${agent.inFlight} run(s) in flight)\n`);
  await agent.close();
  return EXIT.ok;
}

function wholeNumber(
  name: string,
  text: string | undefined,
  fallback: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new UsageError(
      `--${name} must be a whole number from 0 to ${max}, got ${JSON.stringify(text)}`,
    );
  return n;
}
