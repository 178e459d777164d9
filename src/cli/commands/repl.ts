/**
 * `switchboard repl <tools>`: an interactive session over the tools. With OPENAI_API_KEY or
 * OPENAI_BASE_URL set (and not `--model manual`) an OpenAI-compatible model answers; otherwise
 * the person at the keyboard plays the model. Works with piped stdin.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readToolsFile } from '../../definition/load.js';
import { DefinitionError, formatIssue } from '../../errors.js';
import type { CommandConfig, ServiceConfig } from '../../session/types.js';
import { EXIT, UsageError, parseJsonOption, useColor, type CliIO } from '../io.js';
import { loadToolsFile, reportRefusedSettings } from './tools-file.js';
import {
  DEFAULT_OPENAI_MODEL,
  hasRemoteModel,
  manualOrRemote,
  toolCallTransport,
} from './remote-model.js';
import { LineSource } from '../repl/line-source.js';
import { parseReplActions } from '../repl/repl-actions.js';
import { languageOptions } from '../repl/check-language.js';
import { REPL_COMMANDS, ReplController } from '../repl/repl-controller.js';

/** Model used when OPENAI_MODEL is not set. */
export { DEFAULT_OPENAI_MODEL };

export const replHelp = `Usage: switchboard repl <tools-file> [options]

Talk to your tools. Plain lines are the caller's words. Endpoint calls go out for real.

Options:
  --vars <file|json>      initial session variables: inline JSON or a JSON/YAML file
  --system-values <file|json>  the host's system values, e.g. '{"source":"+15551234"}':
                          source (caller's number), target (number called), timezone; the
                          tools read them as vars.session.source/target/timezone
  --language <tag>        initial language (default en-US, or the first of --languages)
  --languages <a,b,…>     allowed languages
  --model openai|manual   who answers (default: openai when OPENAI_API_KEY or OPENAI_BASE_URL
                          is set, else manual). OPENAI_MODEL picks the model (default ${DEFAULT_OPENAI_MODEL}).
  --text-markers          for models without native tool calls: tools are described in the
                          system prompt and called with <tool>{"name":…,"input":{…}}</tool>
  --json-tool-calls       for models that only write JSON: every reply is one object,
                          {"tool":"name","input":{…}} or {"tool":"none","response":"…"}
  --services <file|json>  services with their auth for endpoint calls (docs/handlers.md), e.g.
                          '{"clinic":{"auth":{"type":"bearer","token":"…"}}}' or a JSON/YAML file;
                          /save writes them with every secret replaced
  --commands <file|json> programs command tools run, by name (docs/handlers.md), e.g.
                          '{"synapse":{"path":"/usr/local/bin/synapse","env":{"HOME":"/tmp"}}}'
                          or a JSON/YAML file; they run for real, with only that environment
  --actions <file|json>   how the host answers action tools, as a fixture's actions:, e.g.
                          '{"hangup":{"end_session":true}}' (others succeed with their result);
                          when an action ends the session, the REPL ends (exit 0)
  --speech-ack host|auto  who reports playback (default auto: speech counts as played when
                          emitted); host: you do, with /spoken <id>, and speech ids are shown
  --no-color              plain output
  -h, --help              show this help

${REPL_COMMANDS}`;

/** Runs the command; returns the exit code. */
export async function replCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      vars: { type: 'string' },
      'system-values': { type: 'string' },
      language: { type: 'string' },
      languages: { type: 'string' },
      model: { type: 'string' },
      services: { type: 'string' },
      commands: { type: 'string' },
      actions: { type: 'string' },
      'text-markers': { type: 'boolean' },
      'json-tool-calls': { type: 'boolean' },
      'speech-ack': { type: 'string' },
      'no-color': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(replHelp);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('name exactly one tools file');
  const file = positionals[0] as string;
  const vars = await readVars(values.vars);
  const systemValues = await readSystemValues(values['system-values']);
  if (values.model !== undefined && values.model !== 'openai' && values.model !== 'manual') {
    throw new UsageError(`--model must be openai or manual, got ${JSON.stringify(values.model)}`);
  }
  const mode = values.model ?? (hasRemoteModel(io.env) ? 'openai' : 'manual');
  const model = manualOrRemote({
    command: 'repl',
    mode,
    io,
    toolCalls: toolCallTransport(values),
  });
  if (model === undefined) return EXIT.unusable;

  const tools = await loadToolsFile('repl', file, io);
  if (tools === undefined) return EXIT.unusable;

  const { language, languages } = languageOptions(values);
  const services = await readServices(values.services, (line) =>
    io.stderr.write(`warning: ${line}\n`),
  );
  const commands = await readCommands(values.commands);
  const actions =
    values.actions === undefined
      ? undefined
      : parseReplActions(await readObjectOption('actions', values.actions), tools);
  const speechAck = readSpeechAck(values['speech-ack']);
  let repl: ReplController | undefined;
  const lines = new LineSource(io.stdin, io.stdout, { onInterrupt: () => repl?.interrupt() });
  try {
    repl = new ReplController({
      io,
      lines,
      tools,
      toolsFile: resolve(file),
      model,
      vars,
      ...(systemValues !== undefined ? { systemValues } : {}),
      language,
      ...(languages !== undefined ? { languages } : {}),
      ...(services !== undefined ? { services } : {}),
      ...(commands !== undefined ? { commands } : {}),
      ...(actions !== undefined ? { actions } : {}),
      ...(speechAck !== undefined ? { speechAck } : {}),
      color: values['no-color'] !== true && useColor(io),
    });
  } catch (error) {
    // The host's settings (--services, --commands) are refused before the first turn.
    if (!(error instanceof DefinitionError)) throw error;
    lines.close();
    reportRefusedSettings('repl', error, io);
    return EXIT.unusable;
  }
  try {
    await repl.run();
  } finally {
    lines.close();
    await repl.close();
  }
  return EXIT.ok;
}

/** `--speech-ack host|auto` (repl, studio): who reports playback. Absent: the session's default. */
export function readSpeechAck(value: string | undefined): 'host' | 'auto' | undefined {
  if (value === undefined || value === 'host' || value === 'auto') return value;
  throw new UsageError(`--speech-ack: expected host or auto, got ${JSON.stringify(value)}`);
}

/**
 * `--vars` (repl, serve, studio): initial session variables as inline JSON, or a JSON/YAML file.
 * Absent: none.
 */
export async function readVars(value: string | undefined): Promise<Record<string, unknown>> {
  if (value === undefined) return {};
  const parsed = await readInlineOrFile('vars', value);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(
      `--vars must be an object of variables ({ "<name>": <value> }), got ${Array.isArray(parsed) ? 'a list' : JSON.stringify(parsed)}`,
    );
  return parsed as Record<string, unknown>;
}

/** The host's system values a session takes (`createSession({ systemValues })`). */
export interface SystemValuesOption {
  readonly source?: string;
  readonly target?: string;
  readonly timezone?: string;
}

const SYSTEM_VALUE_KEYS = ['source', 'target', 'timezone'] as const;

/**
 * `--system-values` (repl, serve, studio): the caller's and the called number and the time zone
 * (`vars.session.source`/`target`/`timezone`), checked like a fixture's `session.system_values`:
 * an unknown key or a value that is not a string is a usage error naming it. Absent: none.
 */
export async function readSystemValues(
  value: string | undefined,
): Promise<SystemValuesOption | undefined> {
  if (value === undefined) return undefined;
  const parsed = await readInlineOrFile('system-values', value);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(
      `--system-values must be an object of { source, target, timezone }, got ${Array.isArray(parsed) ? 'a list' : JSON.stringify(parsed)}`,
    );
  const out: { source?: string; target?: string; timezone?: string } = {};
  for (const [key, v] of Object.entries(parsed)) {
    const known = SYSTEM_VALUE_KEYS.find((k) => k === key);
    if (known === undefined)
      throw new UsageError(
        `--system-values: unknown key ${JSON.stringify(key)} (expected ${SYSTEM_VALUE_KEYS.join(', ')})`,
      );
    if (typeof v !== 'string')
      throw new UsageError(
        `--system-values.${key}: expected a string, got ${v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v}`,
      );
    if (known === 'timezone' && !isTimeZoneName(v))
      throw new UsageError(
        `--system-values.timezone: ${JSON.stringify(v)} is not an IANA time zone name (e.g. "America/New_York")`,
      );
    out[known] = v;
  }
  return out;
}

function isTimeZoneName(name: string): boolean {
  if (name === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** `--services`: inline JSON, or a JSON/YAML file. Only the shape of an object is checked here. */
export async function readServices(
  value: string | undefined,
  warn?: (line: string) => void,
): Promise<Record<string, ServiceConfig> | undefined> {
  if (value === undefined) return undefined;
  const parsed = await readObjectOption('services', value);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError('--services must be an object of { "<service>": { auth, headers } }');
  }
  if (warn !== undefined) for (const line of envLookalikes(parsed, 'services')) warn(line);
  return parsed as Record<string, ServiceConfig>;
}

/**
 * Strings written like a shell variable (`"$CLINIC_TOKEN"`, `"${CLINIC_TOKEN}"`): nothing
 * expands them, so such a token would be sent as written and refused by the API. Service values
 * sit at most three levels down (`services.<name>.auth.token`), so the walk stops there.
 */
function envLookalikes(value: unknown, path: string, depth = 0): string[] {
  if (typeof value === 'string')
    return /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(value)
      ? [
          `${path} is ${JSON.stringify(value)}, which is used as written: no environment variable is expanded (write the value, or build inline JSON in the shell, where ${value} expands)`,
        ]
      : [];
  if (typeof value !== 'object' || value === null || depth > 3) return [];
  return Object.entries(value).flatMap(([key, v]) => envLookalikes(v, `${path}.${key}`, depth + 1));
}

/** `--commands`: inline JSON, or a JSON/YAML file; createSession checks each command's settings. */
export async function readCommands(
  value: string | undefined,
): Promise<Record<string, CommandConfig> | undefined> {
  if (value === undefined) return undefined;
  const parsed = await readObjectOption('commands', value);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(
      '--commands must be an object of { "<command>": { path, args, cwd, env } }',
    );
  }
  return parsed as Record<string, CommandConfig>;
}

/** An option given as inline JSON or as a JSON/YAML file; inline JSON need not be an object. */
async function readInlineOrFile(name: string, value: string): Promise<unknown> {
  // Inline JSON that is not an object (`[1]`, `"x"`) gets the JSON option's own message.
  const inline = /^\s*[[{"]/.test(value) || /^\s*(-?\d[\d.eE+-]*|true|false|null)\s*$/.test(value);
  return inline ? parseJsonOption(name, value) : await readObjectOption(name, value);
}

/** An option given as inline JSON (starting with `{`) or as a JSON/YAML file. */
async function readObjectOption(name: string, value: string): Promise<unknown> {
  if (value.trimStart().startsWith('{')) return parseJsonOption(name, value);
  try {
    return await readToolsFile(value);
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    throw new UsageError(`--${name}: ${error.issues.map((i) => formatIssue(i)).join('; ')}`);
  }
}
