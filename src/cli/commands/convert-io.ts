/**
 * What `import` and `export` share: the option parsing and `--from`/`--to` platform check, writing
 * the result (stdout as JSON, or `-o FILE` as JSON or YAML by extension), the warnings and summary
 * on stderr, and the exit code (definition errors are unusable input).
 */
import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import { closestName } from '../../did-you-mean.js';
import { DefinitionError, formatIssue } from '../../errors.js';
import { PLATFORMS, type ConversionWarning, type Platform } from '../../import/types.js';
import { EXIT, UsageError, type CliIO } from '../io.js';

/** What a conversion produced: the value to write, how many tools it holds, what did not map. */
export interface Converted {
  readonly output: unknown;
  readonly count: number;
  readonly warnings: readonly ConversionWarning[];
}

/** How one conversion command differs from the other. */
export interface ConversionCommand {
  /** The platform option, also the word before the platform in the summary (`from`, `to`). */
  readonly platformOption: 'from' | 'to';
  /** Past tense for the summary line (`imported`, `exported`). */
  readonly verb: string;
  readonly help: string;
  /** The usage error when the command is not given exactly one file. */
  readonly oneFile: string;
  /** Reads `file` and converts it; a {@link DefinitionError} means unusable input (exit 2). */
  convert(input: {
    readonly file: string;
    readonly platform: Platform;
    readonly out: string | undefined;
  }): Promise<Converted>;
}

/**
 * Runs `import` or `export`: `--from|--to <platform> FILE [-o OUT] [--strict]`. Returns the exit
 * code: 0 converted, 1 warnings with `--strict`, 2 a {@link DefinitionError}.
 */
export async function runConversion(
  argv: readonly string[],
  io: CliIO,
  command: ConversionCommand,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      [command.platformOption]: { type: 'string' },
      out: { type: 'string', short: 'o' },
      strict: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(command.help);
    return EXIT.ok;
  }
  const platformValue = values[command.platformOption];
  const platform = platformOption(
    command.platformOption,
    typeof platformValue === 'string' ? platformValue : undefined,
  );
  if (positionals.length !== 1) throw new UsageError(command.oneFile);
  const file = positionals[0]!;
  const out = typeof values.out === 'string' ? values.out : undefined;
  try {
    const result = await command.convert({ file, platform, out });
    await writeOutput(io, result.output, out);
    printWarnings(io, result.warnings, file);
    io.stderr.write(
      `${command.verb} ${result.count} tool(s) ${command.platformOption} ${platform}, ${result.warnings.length} warning(s)\n`,
    );
    return values.strict === true && result.warnings.length > 0 ? EXIT.failed : EXIT.ok;
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    io.stderr.write(`${error.message.split('\n')[0]}\n`);
    for (const i of error.issues.filter((x) => x.severity === 'error'))
      io.stderr.write(`  ${formatIssue(i)}\n`);
    // Why each item was skipped, when nothing was imported.
    for (const i of error.issues.filter((x) => x.severity === 'warning'))
      io.stderr.write(`warning: ${formatIssue(i)}\n`);
    return EXIT.unusable;
  }
}

/** The platform named by an option, or a usage error listing the platforms. */
export function platformOption(option: string, value: string | undefined): Platform {
  if (value === undefined) throw new UsageError(`--${option} is required (${PLATFORMS.join('|')})`);
  const found = PLATFORMS.find((p) => p === value.toLowerCase());
  if (found === undefined) {
    const near = closestName({ name: value, candidates: PLATFORMS });
    throw new UsageError(
      `--${option} must be one of ${PLATFORMS.join('|')}, got ${JSON.stringify(value)}${near === undefined ? '' : ` (did you mean ${near}?)`}`,
    );
  }
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
