/**
 * `switchboard import --from <platform> FILE [-o OUT] [--strict]`: a platform's tool JSON →
 * Syllable-format definitions (`{ "tools": [...] }`) that `validate` accepts. Warnings go to
 * stderr. Exit 0 converted, 1 converted with warnings under `--strict`, 2 unusable input.
 */
import { parseArgs } from 'node:util';
import { loadTools, readToolsFile } from '../../definition/load.js';
import { DefinitionError, formatIssue } from '../../errors.js';
import { importTools } from '../../import/import-tools.js';
import { PLATFORMS } from '../../import/types.js';
import { EXIT, UsageError, type CliIO } from '../io.js';
import { platformOption, printWarnings, writeOutput } from './convert-io.js';

export const importHelp = `Usage: switchboard import --from ${PLATFORMS.join('|')} <file> [options]

Converts a hosted platform's tools (JSON or YAML) into Syllable-format definitions. Every vendor
field that does not map exactly is a warning on stderr; secrets are never copied (headers and
credentials become a "service" reference to configure). See docs/import.md.

Options:
  --from <platform>  the platform the file comes from (required)
  -o, --out <file>   write the definitions there (.json, or .yaml/.yml for YAML); default stdout
  --strict           exit 1 when there is any warning
  -h, --help         show this help

Exit codes: 0 converted, 1 warnings with --strict, 2 unreadable or malformed input.
`;

/** Runs the command; returns the exit code. */
export async function importCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      out: { type: 'string', short: 'o' },
      strict: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(importHelp);
    return EXIT.ok;
  }
  const from = platformOption('from', values.from);
  if (positionals.length !== 1) throw new UsageError('name exactly one file to import');
  const file = positionals[0]!;
  try {
    const result = importTools(await readToolsFile(file), { from, file });
    // The promise of the command: what it writes loads. A failure here is a bug, reported as such.
    await loadTools({ tools: result.tools }, { file: values.out ?? '<stdout>' });
    await writeOutput(io, { tools: result.tools }, values.out);
    printWarnings(io, result.warnings, file);
    io.stderr.write(
      `imported ${result.tools.length} tool(s) from ${from}, ${result.warnings.length} warning(s)\n`,
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
