/**
 * What every command that runs a tool set does with it and with the host's settings: load the
 * tools file (its errors printed, the command ends with "unusable"), and report a host setting a
 * session refuses with the option that fixes it.
 */
import { loadTools } from '../../definition/load.js';
import type { ToolSet } from '../../definition/types.js';
import { DefinitionError, formatIssue } from '../../errors.js';
import type { CliIO } from '../io.js';

/**
 * The tool set of `file`, or undefined after printing its errors as `switchboard <command>: FILE
 * has errors:` and one line per issue. Warnings are printed when `warnings` is true (default).
 */
export async function loadToolsFile(
  command: string,
  file: string | undefined,
  io: CliIO,
  warnings = true,
): Promise<ToolSet | undefined> {
  let tools: ToolSet;
  try {
    tools = file === undefined ? await loadTools([]) : await loadTools(file, { file });
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    io.stderr.write(`switchboard ${command}: ${file ?? 'tools'} has errors:\n`);
    for (const i of error.issues) io.stderr.write(`  ${i.severity} ${formatIssue(i)}\n`);
    return undefined;
  }
  if (warnings) for (const w of tools.warnings) io.stderr.write(`warning: ${formatIssue(w)}\n`);
  return tools;
}

/** Prints why a session refused the host's settings, and which option registers what is missing. */
export function reportRefusedSettings(command: string, error: unknown, io: CliIO): void {
  io.stderr.write(
    `switchboard ${command}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  if (
    error instanceof DefinitionError &&
    error.issues.some((i) => i.code === 'command_not_registered')
  )
    io.stderr.write('register the programs of command tools with --commands (see --help)\n');
}
