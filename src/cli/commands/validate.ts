/**
 * `switchboard validate <files…>`: loads each tools file and reports errors and warnings with
 * `file: path: message`. Exit 0 without errors, 1 with any error, 2 when a file cannot be read.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MAX_FILE_BYTES } from '../../definition/document-limits.js';
import { loadTools, parseDocument } from '../../definition/load.js';
import { isPlainObject } from '../../own-data.js';
import { DefinitionError, formatIssue, type DefinitionIssue } from '../../errors.js';
import { EXIT, UsageError, useColor, type CliIO } from '../io.js';

export const validateHelp = `Usage: switchboard validate <tools-file|directory…> [options]

Checks tool definition files (JSON or YAML): shape, meaning (lint) and JSON Schemas. A directory
stands for the .json, .yaml and .yml files directly in it, except conversation fixtures and
package.json, package-lock.json and tsconfig files (listed as skipped).

Options:
  --json      print a JSON report instead of text
  --strict    treat warnings as errors
  -h, --help  show this help

Exit codes: 0 no errors, 1 errors found, 2 a file could not be read or bad usage.
`;

interface FileReport {
  file: string;
  ok: boolean;
  tools: string[];
  issues: DefinitionIssue[];
}

/** Runs the command; returns the exit code. */
export async function validateCommand(argv: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      strict: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(validateHelp);
    return EXIT.ok;
  }
  if (positionals.length === 0) throw new UsageError('name at least one tools file');
  const reports: FileReport[] = [];
  let unreadable = false;
  const { files, skipped } = await expandDirectories(positionals);
  for (const file of files) {
    try {
      const set = await loadTools(file, { file, strict: values.strict === true });
      reports.push({ file, ok: true, tools: [...set.tools.keys()], issues: [...set.warnings] });
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      if (error.issues.some((i) => i.code === 'unreadable')) unreadable = true;
      reports.push({ file, ok: false, tools: [], issues: [...error.issues] });
    }
  }
  const errors = reports.flatMap((r) => r.issues).filter((i) => i.severity === 'error').length;
  const warnings = reports.flatMap((r) => r.issues).filter((i) => i.severity === 'warning').length;
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify({ errors, warnings, files: reports, skipped }, null, 2)}\n`);
  } else {
    const color = useColor(io);
    const red = (t: string): string => (color ? `\u001b[31m${t}\u001b[39m` : t);
    const yellow = (t: string): string => (color ? `\u001b[33m${t}\u001b[39m` : t);
    for (const r of reports) {
      io.stdout.write(
        r.ok
          ? `✓ ${r.file}: ${r.tools.length} tool(s) ${r.tools.length > 0 ? `(${r.tools.join(', ')})` : ''}\n`
          : `✗ ${r.file}\n`,
      );
      for (const i of r.issues) {
        const label = i.severity === 'error' ? red('error') : yellow('warning');
        io.stdout.write(
          `  ${label} ${formatIssue({ ...i, file: i.file ?? r.file })} [${i.code}]\n`,
        );
      }
    }
    for (const k of skipped) io.stdout.write(`- ${k.file}: skipped, ${k.reason}\n`);
    io.stdout.write(`${errors} error(s), ${warnings} warning(s) in ${reports.length} file(s)\n`);
  }
  if (unreadable) return EXIT.unusable;
  return errors > 0 ? EXIT.failed : EXIT.ok;
}

const TOOL_FILE_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

/** A file a directory holds that is not a tools file, and why. */
interface Skipped {
  file: string;
  reason: string;
}

/** Manifests that sit beside tools files in a project's root: never tools files. */
const NOT_TOOLS =
  /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|[jt]sconfig(\..+)?\.json)$/i;

/**
 * Why a file found in a directory is not a tools file: a conversation fixture (top-level
 * `turns`, the rule `switchboard test` uses to tell them apart), or a package manifest. A file
 * named on its own is always validated, so a fixture passed by mistake is still said to be one.
 */
async function notToolsFile(file: string): Promise<string | undefined> {
  if (NOT_TOOLS.test(basename(file))) return 'a package or TypeScript manifest, not a tools file';
  let value: unknown;
  try {
    // Over the loader's cap, loading it says so: it is not read twice.
    if ((await stat(file)).size > DEFAULT_MAX_FILE_BYTES) return undefined;
    value = parseDocument(await readFile(file, 'utf8'), file);
  } catch {
    return undefined; // unreadable or malformed: validating it says why
  }
  return isPlainObject(value) && Object.hasOwn(value, 'turns')
    ? 'a conversation fixture (run it with switchboard test)'
    : undefined;
}

/** Replaces each directory argument by its tool files (sorted); other arguments stay as given. */
async function expandDirectories(
  args: readonly string[],
): Promise<{ files: string[]; skipped: Skipped[] }> {
  const files: string[] = [];
  const skipped: Skipped[] = [];
  for (const arg of args) {
    const isDirectory = await stat(arg).then(
      (s) => s.isDirectory(),
      () => false, // unreadable: loadTools reports it with the file name
    );
    if (!isDirectory) {
      files.push(arg);
      continue;
    }
    const entries = await readdir(arg, { withFileTypes: true });
    const inside = entries
      .filter((e) => e.isFile() && TOOL_FILE_EXTENSIONS.has(extname(e.name).toLowerCase()))
      .map((e) => join(arg, e.name))
      .sort();
    if (inside.length === 0) throw new UsageError(`${arg}: no .json, .yaml or .yml files in it`);
    for (const file of inside) {
      const reason = await notToolsFile(file);
      if (reason === undefined) files.push(file);
      else skipped.push({ file, reason });
    }
  }
  return { files, skipped };
}
