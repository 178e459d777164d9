/**
 * `switchboard studio [tools-file]`: a local web app over the tools (docs/studio.md). A thin
 * shell: it reads the options, loads the tools and starts the studio's server, which lives in
 * src/studio and loads only for this command.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { manualOrRemote, toolCallTransport } from './remote-model.js';
import { isLoopbackHost } from '../../http-guard.js';
import { startStudio } from '../../studio/studio-server.js';
import { EXIT, UsageError, nonEmpty, stopRequested, type CliIO } from '../io.js';
import { listenProblem } from '../listen-error.js';
import { loadToolsFile, reportRefusedSettings } from './tools-file.js';
import { languageOptions } from '../repl/check-language.js';
import {
  DEFAULT_OPENAI_MODEL,
  readCommands,
  readServices,
  readSpeechAck,
  readVars,
  readSystemValues,
} from './repl.js';

export const studioHelp = `Usage: switchboard studio [tools-file] [options]

A local web app over your tools: browse them, hold a conversation (playing the model yourself
or with an OpenAI-compatible model), see each turn on a timeline (model calls, tool calls, HTTP,
speech, language), save it as a fixture and run a fixtures folder. Every asset is served from
the package; nothing is fetched from the internet.

Options:
  --fixtures <dir>        where fixtures are saved and run from (default: the current folder)
  --services <file|json>  services with their auth for endpoint calls (as for repl)
  --commands <file|json>  programs command tools run, by name (as for repl)
  --vars <file|json>      initial session variables: inline JSON or a JSON/YAML file (as for
                          repl); a new conversation starts with them again
  --system-values <file|json>  the caller's and the called number and the time zone,
                          '{"source":…,"target":…,"timezone":…}' (as for repl)
  --speech-ack host|auto  who reports playback (default auto: speech counts as played when
                          emitted); host: you do, with "mark spoken" on the timeline (as for repl)
  --model manual|openai   who answers (default manual: you play the model in the page);
                          openai needs OPENAI_API_KEY or OPENAI_BASE_URL (OPENAI_MODEL picks
                          the model, default ${DEFAULT_OPENAI_MODEL})
  --text-markers          with --model openai: tools called through text markers
  --json-tool-calls       with --model openai: every reply one JSON object ({"tool":…})
  --language <tag>        initial language (default en-US, or the first of --languages)
  --languages <a,b,…>     allowed languages
  --port <n>              port to listen on (default 4780; 0: any free port)
  --host <address>        address to listen on (default 127.0.0.1). Any other address needs
                          a token: the page then opens from the printed URL (…/?token=…)
  --token <token>         the studio's token (default SWITCHBOARD_STUDIO_TOKEN; off loopback,
                          a random one when neither is given)
  -h, --help              show this help

The studio answers only requests addressed to itself (Host and Origin checked), so another
web page cannot drive it. Stop it with Ctrl-C.
`;

/** Default port: fixed, so a bookmark keeps working. */
export const DEFAULT_STUDIO_PORT = 4780;

/** Runs the command until the process is interrupted; returns the exit code. */
export async function studioCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      fixtures: { type: 'string' },
      services: { type: 'string' },
      commands: { type: 'string' },
      vars: { type: 'string' },
      'system-values': { type: 'string' },
      'speech-ack': { type: 'string' },
      model: { type: 'string' },
      'text-markers': { type: 'boolean' },
      'json-tool-calls': { type: 'boolean' },
      language: { type: 'string' },
      languages: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(studioHelp);
    return EXIT.ok;
  }
  if (positionals.length > 1) throw new UsageError('name at most one tools file');
  const port = values.port === undefined ? DEFAULT_STUDIO_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be an integer 0-65535, got ${JSON.stringify(values.port)}`);
  const mode = values.model ?? 'manual';
  if (mode !== 'manual' && mode !== 'openai')
    throw new UsageError(`--model must be manual or openai, got ${JSON.stringify(mode)}`);
  const { language, languages } = languageOptions(values);
  const services = await readServices(values.services, (line) =>
    io.stderr.write(`warning: ${line}\n`),
  );
  const commands = await readCommands(values.commands);
  const vars = await readVars(values.vars);
  const systemValues = await readSystemValues(values['system-values']);
  const speechAck = readSpeechAck(values['speech-ack']);

  const model = manualOrRemote({
    command: 'studio',
    mode,
    io,
    toolCalls: toolCallTransport(values),
  });
  if (model === undefined) return EXIT.unusable;

  const host = values.host ?? '127.0.0.1';
  const given = values.token ?? nonEmpty(io.env['SWITCHBOARD_STUDIO_TOKEN']);
  if (given !== undefined && given.trim() === '') throw new UsageError('--token must not be empty');
  // Off loopback the page needs a token; one made here is in the URL printed below.
  const token = given ?? (isLoopbackHost(host) ? undefined : randomBytes(18).toString('base64url'));
  const file = positionals[0];
  const tools = await loadToolsFile('studio', file, io, false);
  if (tools === undefined) return EXIT.unusable;
  let studio;
  try {
    studio = await startStudio({
      tools,
      toolsFile: file === undefined ? '' : resolve(file),
      model,
      ...(services !== undefined ? { services } : {}),
      ...(commands !== undefined ? { commands } : {}),
      vars,
      ...(systemValues !== undefined ? { systemValues } : {}),
      ...(speechAck !== undefined ? { speechAck } : {}),
      language,
      ...(languages !== undefined ? { languages } : {}),
      fixturesDir: values.fixtures ?? '.',
      host,
      ...(token === undefined ? {} : { token }),
      port,
    });
  } catch (error) {
    const problem = listenProblem(error, '--port <n>, or --port 0 for a free one');
    if (problem !== undefined) {
      io.stderr.write(`switchboard studio: ${problem}\n`);
      return EXIT.unusable;
    }
    reportRefusedSettings('studio', error, io);
    return EXIT.unusable;
  }
  // Listening for the stop before saying where to go: a supervisor that stops the studio as soon
  // as it sees the address must not find the default (killing) disposition still in place.
  const stopped = stopRequested(io);
  io.stdout.write(`switchboard studio: open ${studio.url}\n`);
  await stopped;
  await studio.close();
  return EXIT.ok;
}
