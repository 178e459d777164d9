/**
 * `switchboard import --from <platform> FILE [-o OUT] [--strict]`: a platform's tool JSON →
 * Syllable-format definitions (`{ "tools": [...] }`) that `validate` accepts. Warnings go to
 * stderr. Exit 0 converted, 1 converted with warnings under `--strict`, 2 unusable input (also a
 * file holding no tool to import).
 */
import { loadTools, readToolsFile } from '../../definition/load.js';
import { importTools } from '../../import/import-tools.js';
import { PLATFORMS } from '../../import/types.js';
import type { CliIO } from '../io.js';
import { runConversion } from './convert-io.js';

export const importHelp = `Usage: switchboard import --from ${PLATFORMS.join('|')} <file> [options]

Converts a hosted platform's tools (JSON or YAML) into Syllable-format definitions. Every vendor
field that does not map exactly is a warning on stderr; secrets are never copied (headers and
credentials become a "service" reference to configure). See docs/import.md.

Options:
  --from <platform>  the platform the file comes from (required)
  -o, --out <file>   write the definitions there (.json, or .yaml/.yml for YAML); default stdout
  --strict           exit 1 when there is any warning
  -h, --help         show this help

Exit codes: 0 converted, 1 warnings with --strict, 2 unreadable or malformed input, or no tool
to import (the wrong file or the wrong --from).
`;

/** Runs the command; returns the exit code. */
export async function importCommand(argv: readonly string[], io: CliIO): Promise<number> {
  return runConversion(argv, io, {
    platformOption: 'from',
    verb: 'imported',
    help: importHelp,
    oneFile: 'name exactly one file to import',
    async convert({ file, platform, out }) {
      const result = importTools(await readToolsFile(file), { from: platform, file });
      // The promise of the command: what it writes loads. A failure here is a bug; it names the
      // vendor file it came from (the paths are those of the imported definitions).
      await loadTools(
        { tools: result.tools },
        { file: `${out ?? '<stdout>'} (imported from ${file})` },
      );
      return {
        output: { tools: result.tools },
        count: result.tools.length,
        warnings: result.warnings,
      };
    },
  });
}
