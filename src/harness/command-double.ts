/**
 * The harness's stand-in for programs (docs/harness.md, "Command double"): a command runner that
 * records every run (command and argv) and answers with the runs a fixture declares, so fixtures
 * with command tools run offline and start no process. A run no declared exchange matches is
 * recorded as undeclared and fails to start (`spawn_failed`); the fixture fails.
 */
import type {
  CommandExit,
  CommandInvocation,
  CommandRunner,
} from '../handlers/command/command-config.js';
import type { CommandExchange } from './fixture-schema.js';
import { checkCommandDoubleOptions } from './check-run-options.js';

/** A run the double saw. */
export interface RecordedCommand {
  readonly command: string;
  readonly argv: readonly string[];
  /** `command[index]` of the exchange that answered it; undefined when none did. */
  readonly exchange?: number;
}

/** A declared run that was made fewer times than it declares. */
export interface UnusedCommand {
  readonly command: string;
  /** Its index in the command's list. */
  readonly index: number;
  /** How many of its `times` were not used. */
  readonly remaining: number;
}

/** Options of {@link createCommandDouble}. */
export interface CommandDoubleOptions {
  /** The runs to answer, by command name, in declaration order (first unused match wins). */
  readonly commands: ReadonlyMap<string, readonly CommandExchange[]>;
}

/** The runner plus what it saw. */
export interface CommandDouble {
  /** Pass as `SessionOptions.commandRunner`. */
  readonly runner: CommandRunner;
  /** The session's `commands`: every declared name, with a path that is never run. */
  readonly commands: Readonly<Record<string, { readonly path: string }>>;
  /** Every run, in order. */
  readonly runs: readonly RecordedCommand[];
  /** The declared runs not made as many times as they declare. */
  unusedCommands(): UnusedCommand[];
}

function sameArgv(want: readonly string[] | undefined, got: readonly string[]): boolean {
  return want === undefined || (want.length === got.length && want.every((w, i) => w === got[i]));
}

/** Waits `ms`, or less when the call is cancelled or its deadline passes first. */
function wait(ms: number, inv: CommandInvocation): Promise<CommandExit | undefined> {
  if (ms === 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (exit: CommandExit | undefined): void => {
      clearTimeout(timer);
      clearTimeout(deadline);
      inv.signal.removeEventListener('abort', onAbort);
      resolve(exit);
    };
    const onAbort = (): void => done({ kind: 'cancelled' });
    const timer = setTimeout(() => done(undefined), ms);
    const deadline = setTimeout(() => done({ kind: 'timeout' }), inv.timeoutMs);
    inv.signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Creates a recording, answering command runner for one fixture run. */
export function createCommandDouble(options: CommandDoubleOptions): CommandDouble {
  checkCommandDoubleOptions(options);
  const uses = new Map<string, number[]>();
  for (const [name, list] of options.commands)
    uses.set(
      name,
      list.map(() => 0),
    );
  const runs: RecordedCommand[] = [];
  const commands: Record<string, { path: string }> = {};
  for (const name of options.commands.keys())
    Object.defineProperty(commands, name, {
      value: { path: `/nonexistent/command-double/${name}` },
      enumerable: true,
    });

  const runner: CommandRunner = {
    async run(inv) {
      const declared = options.commands.get(inv.command) ?? [];
      const used = uses.get(inv.command) ?? [];
      const index = declared.findIndex(
        (ex, i) => (used[i] ?? 0) < ex.times && sameArgv(ex.argv, inv.argv),
      );
      const exchange = index === -1 ? undefined : declared[index];
      if (exchange === undefined) {
        runs.push({ command: inv.command, argv: [...inv.argv] });
        return { kind: 'spawn_failed', errno: 'ENOENT', message: 'no run is declared' };
      }
      used[index] = (used[index] ?? 0) + 1;
      runs.push({ command: inv.command, argv: [...inv.argv], exchange: index });
      const r = exchange.response;
      const stopped = await wait(r.delay_ms ?? 0, inv);
      if (stopped !== undefined) return stopped;
      if (r.error === 'spawn_failed')
        return { kind: 'spawn_failed', errno: 'ENOENT', message: 'declared to fail' };
      const stdout = r.json !== undefined ? JSON.stringify(r.json) : (r.stdout ?? '');
      if (Buffer.byteLength(stdout) > inv.maxStdoutBytes)
        return { kind: 'stdout_too_large', limit: inv.maxStdoutBytes };
      return {
        kind: 'exited',
        exitCode: r.exit_code,
        signal: null,
        stdout,
        stderr: r.stderr ?? '',
      };
    },
  };

  return {
    runner,
    commands,
    runs,
    unusedCommands() {
      const out: UnusedCommand[] = [];
      for (const [command, list] of options.commands)
        list.forEach((ex, index) => {
          const remaining = ex.times - (uses.get(command)?.[index] ?? 0);
          if (remaining > 0) out.push({ command, index, remaining });
        });
      return out;
    },
  };
}
