/**
 * The fixture failures of the command double (command-double.ts): runs no exchange answered, and
 * declared runs never made.
 */
import type { CommandDouble, RecordedCommand } from './command-double.js';
import type { FixtureFailure } from './fixture-result.js';

/** A turn's runs no exchange answered, as fixture failures (`undeclared_command`). */
export function undeclaredCommands(
  runs: readonly RecordedCommand[],
  turn: number,
): FixtureFailure[] {
  return runs
    .filter((r) => r.exchange === undefined)
    .map((r) => ({
      kind: 'undeclared_command',
      turn,
      message: `undeclared run of command ${r.command} ${JSON.stringify(r.argv)} (declare it under commands.${r.command})`,
    }));
}

/** Declared runs never made, as fixture failures (`unused_command`). */
export function unusedCommandFailures(double: CommandDouble): FixtureFailure[] {
  return double.unusedCommands().map((u) => ({
    kind: 'unused_command',
    message: `declared run commands.${u.command}[${u.index}] was never made${u.remaining > 1 ? ` (${u.remaining} uses left)` : ''}`,
  }));
}
