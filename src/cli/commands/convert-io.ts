/**
 * What `import` and `export` share: the `--from`/`--to` platform check, writing the result (stdout
 * as JSON, or `-o FILE` as JSON or YAML by extension) and the warnings on stderr.
 */
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { stringify } from 'yaml';
import { formatIssue } from '../../errors.js';
import { PLATFORMS, type ConversionWarning, type Platform } from '../../import/types.js';
import { UsageError, type CliIO } from '../io.js';

/** The platform named by an option, or a usage error listing the platforms. */
export function platformOption(option: string, value: string | undefined): Platform {
  if (value === undefined) throw new UsageError(`--${option} is required (${PLATFORMS.join('|')})`);
  const found = PLATFORMS.find((p) => p === value.toLowerCase());
  if (found === undefined)
    throw new UsageError(
      `--${option} must be one of ${PLATFORMS.join('|')}, got ${JSON.stringify(value)}`,
    );
  return found;
}

/** Writes `value` to `out` (JSON, or YAML for .yaml/.yml) or to stdout as JSON. */
export async function writeOutput(
  io: CliIO,
  value: unknown,
  out: string | undefined,
): Promise<void> {
  const yaml = out !== undefined && ['.yaml', '.yml'].includes(extname(out).toLowerCase());
  const text = yaml ? stringify(value, { lineWidth: 0 }) : `${JSON.stringify(value, null, 2)}\n`;
  if (out === undefined) io.stdout.write(text);
  else await writeFile(out, text, 'utf8');
}

/** Prints each warning as `warning: file: path: message`. */
export function printWarnings(
  io: CliIO,
  warnings: readonly ConversionWarning[],
  file: string,
): void {
  for (const w of warnings)
    io.stderr.write(
      `warning: ${formatIssue({ code: 'conversion', severity: 'warning', path: w.path, message: w.message, file })}\n`,
    );
}
