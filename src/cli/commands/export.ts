/**
 * `switchboard export --to <platform> <tools> [-o OUT] [--strict]`: Syllable-format definitions
 * → the platform's tool JSON (a list), with a warning on stderr for everything the platform cannot
 * express. Exit 0 converted, 1 warnings with `--strict`, 2 unusable input (unreadable file or
 * definition errors).
 */
import { loadTools } from '../../definition/load.js';
import { exportTools } from '../../import/export-tools.js';
import { PLATFORMS } from '../../import/types.js';
import type { CliIO } from '../io.js';
import { runConversion } from './convert-io.js';

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
  return runConversion(argv, io, {
    platformOption: 'to',
    verb: 'exported',
    help: exportHelp,
    oneFile: 'name exactly one tools file to export',
    async convert({ file, platform }) {
      const result = exportTools(await loadTools(file), { to: platform });
      return { output: result.tools, count: result.tools.length, warnings: result.warnings };
    },
  });
}
