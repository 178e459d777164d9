/**
 * `switchboard export --to <platform> <tools> [-o OUT] [--strict]`: Syllable-format definitions
 * → the platform's tool JSON (a list), with a warning on stderr for everything the platform cannot
 * express. Exit 0 converted, 1 warnings with `--strict`, 2 unusable input (unreadable file or
 * definition errors).
 */
import { parseArgs } from 'node:util';
import { loadTools } from '../../definition/load.js';
import { DefinitionError, formatIssue } from '../../errors.js';
import { exportTools } from '../../import/export-tools.js';
import { PLATFORMS } from '../../import/types.js';
import { EXIT, UsageError, type CliIO } from '../io.js';
import { platformOption, printWarnings, writeOutput } from './convert-io.js';

export const exportHelp = `Usage: switchboard export --to ${PLATFORMS.join('|')} <tools-file> [options]

Converts Syllable-format definitions into a hosted platform's tools (a JSON list: Vapi tools,
ElevenLabs tool configs, Retell general_tools, Ultravox selectedTools). Everything the platform
cannot express (a defaults rule, a phrase, a service) is a warning on stderr. See docs/import.md.

Options:
  --to <platform>    the platform to write for (required)
  -o, --out <file>   write there (.json, or .yaml/.yml for YAML); default stdout
  --strict           exit 1 when there is any warning
  -h, --help         show this help

Exit codes: 0 converted, 1 warnings with --strict, 2 unreadable file or invalid definitions.
`;

/** Runs the command; returns the exit code. */
export async function exportCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      to: { type: 'string' },
      out: { type: 'string', short: 'o' },
      strict: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(exportHelp);
    return EXIT.ok;
  }
  const to = platformOption('to', values.to);
  if (positionals.length !== 1) throw new UsageError('name exactly one tools file to export');
  const file = positionals[0]!;
  try {
    const result = exportTools(await loadTools(file), { to });
    await writeOutput(io, result.tools, values.out);
    printWarnings(io, result.warnings, file);
    io.stderr.write(
      `exported ${result.tools.length} tool(s) to ${to}, ${result.warnings.length} warning(s)\n`,
    );
    return values.strict === true && result.warnings.length > 0 ? EXIT.failed : EXIT.ok;
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    io.stderr.write(`${error.message.split('\n')[0]}\n`);
    for (const i of error.issues.filter((x) => x.severity === 'error'))
      io.stderr.write(`  ${formatIssue(i)}\n`);
    return EXIT.unusable;
  }
}
