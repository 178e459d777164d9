/**
 * A command runner that records every run and how it ended (the REPL's, for `/save`), so a saved
 * fixture can declare the runs for the command double. Runs go to an inner runner (processes, by
 * default); the record holds the argv without the host's own `args` (the double's commands have
 * none) and is scrubbed of secrets, as everything the REPL prints and saves.
 */
import type {
  CommandConfig,
  CommandExit,
  CommandRunner,
} from '../handlers/command/command-config.js';
import { spawnRunner } from '../handlers/command/spawn-runner.js';

/** One run as recorded. */
export interface RecordedRun {
  readonly command: string;
  /** After the host's `args`. */
  readonly argv: readonly string[];
  readonly exit: CommandExit;
  readonly timeoutMs: number;
}

/** Options of {@link createRecordingRunner}. */
export interface RecordingRunnerOptions {
  /** The commands as the host registered them (their `args` are left out of records). */
  readonly commands: Readonly<Record<string, CommandConfig>>;
  /** Applied to every recorded string. */
  readonly scrub: (text: string) => string;
  /** Default: processes. */
  readonly runner?: CommandRunner;
}

/** The runner plus its records (cleared by the owner as it likes). */
export interface RecordingRunner {
  readonly runner: CommandRunner;
  readonly runs: RecordedRun[];
}

function scrubbedExit(exit: CommandExit, scrub: (text: string) => string): CommandExit {
  return exit.kind === 'exited'
    ? { ...exit, stdout: scrub(exit.stdout), stderr: scrub(exit.stderr) }
    : exit.kind === 'spawn_failed'
      ? { ...exit, message: scrub(exit.message) }
      : exit;
}

/** Creates a runner that records what its inner runner did. */
export function createRecordingRunner(options: RecordingRunnerOptions): RecordingRunner {
  const inner = options.runner ?? spawnRunner;
  const runs: RecordedRun[] = [];
  return {
    runs,
    runner: {
      async run(inv) {
        const exit = await inner.run(inv);
        const config = Object.hasOwn(options.commands, inv.command)
          ? options.commands[inv.command]
          : undefined;
        runs.push({
          command: inv.command,
          argv: inv.argv.slice(config?.args?.length ?? 0).map(options.scrub),
          exit: scrubbedExit(exit, options.scrub),
          timeoutMs: inv.timeoutMs,
        });
        return exit;
      },
    },
  };
}

/**
 * The fixture's `commands:` for recorded runs: per command, each run with its argv and response.
 * A run that timed out is declared to answer after its deadline (so it times out again); a
 * cancelled run or one whose stdout passed its cap is left out (a replay cannot make it).
 */
export function commandsSection(runs: readonly RecordedRun[]): Record<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const run of runs) {
    const exit = run.exit;
    let response: Record<string, unknown> | undefined;
    if (exit.kind === 'exited') {
      response = { exit_code: exit.exitCode ?? 1 };
      const text = exit.stdout;
      let parsed: { ok: true; value: unknown } | undefined;
      try {
        parsed = text.trim() === '' ? undefined : { ok: true, value: JSON.parse(text) as unknown };
      } catch {
        parsed = undefined;
      }
      if (parsed !== undefined) response['json'] = parsed.value;
      else if (text !== '') response['stdout'] = text;
      if (exit.stderr !== '') response['stderr'] = exit.stderr;
    } else if (exit.kind === 'spawn_failed') response = { error: 'spawn_failed' };
    else if (exit.kind === 'timeout') response = { delay_ms: run.timeoutMs + 1000 };
    if (response === undefined) continue;
    const list = out.get(run.command) ?? [];
    list.push({ argv: [...run.argv], response });
    out.set(run.command, list);
  }
  // Own properties, defined: a command named "__proto__" stays data.
  const section: Record<string, unknown[]> = {};
  for (const [name, list] of out)
    Object.defineProperty(section, name, { value: list, enumerable: true, writable: true });
  return section;
}
