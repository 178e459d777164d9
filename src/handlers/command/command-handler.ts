/**
 * The command handler (docs/handlers.md, "Command"): runs the program the host registered
 * under the definition's `command.name`, with the final arguments as argv (argv.ts), through a
 * runner (spawn-runner.ts, or the harness's double), and turns how it ended into a value or a
 * typed tool error: stdout parsed as JSON when it is JSON (text otherwise); a non-zero exit a
 * `command_failed` carrying the exit code and the tail of stderr. It never throws.
 */
import { nestingDepthExceeds } from '../../json-depth.js';
import type { SecretSet } from '../endpoint/secret-set.js';
import { errorBody, finishOutcome, neverThrow, type OutcomeBody } from '../outcome.js';
import type { Handler, HandlerContext, HandlerOutcome } from '../types.js';
import { buildArgv } from './argv.js';
import {
  DEFAULT_MAX_STDERR_BYTES,
  DEFAULT_MAX_STDOUT_BYTES,
  STDERR_TAIL_CHARS,
  type CommandConfig,
  type CommandExit,
  type CommandRecord,
  type CommandRunner,
} from './command-config.js';
import { spawnRunner } from './spawn-runner.js';

/** Deepest JSON a command's stdout may nest before it is refused (`bad_response`). */
const MAX_OUTPUT_DEPTH = 64;

/** Options of {@link createCommandHandler}. */
export interface CommandHandlerOptions {
  /** Commands by the name definitions use. Default none (every call `not_available`). */
  readonly commands?: Readonly<Record<string, CommandConfig>>;
  /** What starts the runs. Default: child processes (spawn-runner.ts). */
  readonly runner?: CommandRunner;
  /** Outputs and stderr tails are scrubbed with it; the commands' `env` values are added. */
  readonly secrets?: SecretSet;
  /** Clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

/** A command's stdout as the model's value: `{"status":"ok"}` when empty, JSON when it is JSON. */
function outputOf(stdout: string): OutcomeBody {
  const text = stdout.trim();
  if (text === '') return { type: 'success', output: { status: 'ok' } };
  if (nestingDepthExceeds(text, MAX_OUTPUT_DEPTH) !== undefined)
    return errorBody(
      'bad_response',
      `the command's JSON output nests deeper than ${MAX_OUTPUT_DEPTH}`,
    );
  try {
    return { type: 'success', output: JSON.parse(text) as unknown };
  } catch {
    // Not JSON: the text as printed (a trailing newline dropped).
    return { type: 'success', output: stdout.replace(/\r?\n$/, '') };
  }
}

/** The last {@link STDERR_TAIL_CHARS} characters of stderr, trimmed. */
function stderrTail(stderr: string): string {
  const text = stderr.trimEnd();
  return text.length > STDERR_TAIL_CHARS ? `…${text.slice(-STDERR_TAIL_CHARS)}` : text;
}

/** How a run ended, as the body the model sees. */
function interpret(name: string, exit: CommandExit, timeoutSecs: number): OutcomeBody {
  switch (exit.kind) {
    case 'exited': {
      if (exit.exitCode === 0) return outputOf(exit.stdout);
      const stderr = stderrTail(exit.stderr);
      const how =
        exit.exitCode === null
          ? `was ended by ${exit.signal ?? 'a signal'}`
          : `exited with status ${exit.exitCode}`;
      return errorBody('command_failed', `command ${name} ${how}`, {
        exit_code: exit.exitCode,
        ...(exit.exitCode === null && exit.signal !== null ? { signal: exit.signal } : {}),
        stderr,
      });
    }
    case 'spawn_failed':
      return errorBody('spawn_failed', `command ${name} could not be started (${exit.errno})`, {
        errno: exit.errno,
      });
    case 'timeout':
      return errorBody(
        'timeout',
        `command ${name} did not finish within ${timeoutSecs} s; its process group was killed`,
      );
    case 'cancelled':
      return errorBody('cancelled', 'the call was cancelled');
    case 'stdout_too_large':
      return errorBody(
        'response_too_large',
        `command ${name} wrote more than ${exit.limit} bytes to stdout; its process group was killed`,
      );
    default: {
      const _exhaustive: never = exit;
      return _exhaustive;
    }
  }
}

/** The failure a trace records for a body (undefined for success). */
function failureOf(body: OutcomeBody): string | undefined {
  return body.type === 'error' ? body.error.code : undefined;
}

/** Creates the handler of `command` tools. */
export function createCommandHandler(options: CommandHandlerOptions = {}): Handler {
  const now = options.now ?? Date.now;
  const runner = options.runner ?? spawnRunner;
  const commands = options.commands ?? {};
  const secrets = options.secrets;
  for (const config of Object.values(commands))
    for (const value of Object.values(config.env ?? {})) secrets?.add(value);
  const scrub = (body: OutcomeBody): OutcomeBody =>
    secrets === undefined || secrets.size === 0
      ? body
      : body.type === 'success'
        ? { type: 'success', output: secrets.scrubValue(body.output) }
        : errorBody(
            body.error.code,
            secrets.scrubText(body.error.message),
            secrets.scrubValue({ ...body.error.details }) as Record<string, unknown>,
          );

  async function run(
    args: Readonly<Record<string, unknown>>,
    context: HandlerContext,
  ): Promise<OutcomeBody> {
    const spec = context.tool.command;
    if (spec === undefined)
      return errorBody('handler_error', `${context.tool.name} is not a command tool`);
    const config = Object.hasOwn(commands, spec.name) ? commands[spec.name] : undefined;
    if (config === undefined)
      return errorBody('not_available', `command ${spec.name} is not available`);
    const built = buildArgv(args, spec);
    if (!built.ok) return errorBody('invalid_arguments', built.message);
    if (context.signal.aborted) return errorBody('cancelled', 'the call was cancelled');
    const argv = [...(config.args ?? []), ...built.argv];
    // The record leaves out the host's own `args`: it shows what the definition and the model
    // made, the same argv a fixture's command double sees.
    const record: CommandRecord = {
      command: spec.name,
      argv: secrets === undefined ? built.argv : built.argv.map((w) => secrets.scrubText(w)),
    };
    context.onCommand?.(record);
    const traced = context.traceCommand?.(record);
    const exit = await runner.run({
      command: spec.name,
      path: config.path,
      argv,
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      env: config.env ?? {},
      timeoutMs: spec.timeoutSecs * 1000,
      maxStdoutBytes: config.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES,
      maxStderrBytes: config.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES,
      signal: context.signal,
    });
    const body = scrub(interpret(spec.name, exit, spec.timeoutSecs));
    traced?.end(exit.kind === 'exited' ? exit.exitCode : undefined, failureOf(body));
    return body;
  }

  return {
    kind: 'command',
    execute: (args, context): Promise<HandlerOutcome> =>
      neverThrow(now, async (startedAt) =>
        finishOutcome(await run(args, context), startedAt, now()),
      ),
  };
}
