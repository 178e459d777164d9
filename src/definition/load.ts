/**
 * `loadTools`: reads a tools file (JSON or YAML) or an already-parsed value, validates every
 * definition once (shape with zod, meaning with lint), and returns the resolved tool set.
 * Any error-severity issue throws a {@link DefinitionError} listing every problem with its JSON
 * path and file; nothing is half-loaded.
 */
import { open } from 'node:fs/promises';
import { extname, resolve as resolvePath } from 'node:path';
import { celCompiler, mentionsCel } from '../expressions/cel-runtime.js';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { jsonSyntaxMessage } from '../json-error-position.js';
import { yaml } from '../lazy-deps.js';
import { compileDefaults } from '../transform/compile-defaults.js';
import { getOwn, isPlainObject } from '../own-data.js';
import { notAList, toolList } from './tool-list.js';
import { deepestIssues } from '../zod-union.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  MAX_DEFINITION_DEPTH,
  measureValue,
  pathTooDeep,
  type SizeMemo,
} from './document-limits.js';
import { checkEndpointUrl } from './endpoint-url.js';
import { formatPath, joinPath } from './json-path.js';
import { unknownNestedFields } from './unknown-fields.js';
import { zodIssue } from './zod-issue.js';
import { normaliseDefinition } from './normalise.js';
import { checkParameters } from './parameters-check.js';
import { resolveDefinition } from './resolve.js';
import { explainYamlError } from './yaml-error.js';
import { lintWorkflows } from './workflow/lint-workflows.js';
import { definitionSchemas } from './schema.js';
import type { ToolDefinition, ToolSet } from './types.js';
import { checkOptions, fields, integer, isBoolean, isString } from '../option-checks.js';
import { ValidatorFactory } from './validator.js';

/** Options of {@link loadTools}. */
export interface LoadToolsOptions {
  /** Name of the file the value came from, for messages (set automatically for paths). */
  readonly file?: string;
  /** Treat warnings as errors. Default false. */
  readonly strict?: boolean;
  /**
   * Cap on the tools file, and on its definitions with YAML aliases (or shared references)
   * expanded, in bytes. Default 5 MiB ({@link DEFAULT_MAX_FILE_BYTES}).
   */
  readonly maxFileBytes?: number;
}

/** A wrong option is a TypeError naming it; an unknown one a warning (it is ignored). */
const LOAD_OPTIONS = fields({ file: isString, strict: isBoolean, maxFileBytes: integer(1) });

/** Options of {@link readToolsFile}. */
export interface ReadToolsFileOptions {
  /** Name of the file for messages. Default: the path. */
  readonly file?: string;
  /** A larger file is refused before it is parsed. Default 5 MiB. */
  readonly maxFileBytes?: number;
}

/**
 * Loads tool definitions.
 *
 * @param source a path to a `.json`, `.yaml` or `.yml` file, or the parsed value: an array of
 *   definitions or `{ "tools": [...] }`.
 * @throws DefinitionError when any definition has an error (or a warning, with `strict`).
 */
export async function loadTools(
  source: string | unknown,
  options: LoadToolsOptions = {},
): Promise<ToolSet> {
  checkOptions(LOAD_OPTIONS, options, { caller: 'loadTools', error: 'type' });
  if (typeof source === 'string') {
    const file = options.file ?? source;
    const value = await readToolsFile(source, {
      file,
      ...(options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes }),
    });
    if (mentionsCel(value)) await loadCel();
    return buildToolSet(value, { ...options, file }, [resolvePath(source)]);
  }
  if (mentionsCel(source)) await loadCel();
  return buildToolSet(source, options, []);
}

/**
 * Reads and parses a JSON or YAML file; a read or syntax error, or a file over `maxFileBytes`,
 * is a {@link DefinitionError}. `options` may be the file name for messages (older signature).
 */
export async function readToolsFile(
  path: string,
  options: ReadToolsFileOptions | string = {},
): Promise<unknown> {
  const { file = path, maxFileBytes = DEFAULT_MAX_FILE_BYTES } =
    typeof options === 'string' ? { file: options } : options;
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      // Checked before and after reading: the file may grow in between.
      if ((await handle.stat()).size > maxFileBytes) throw tooLarge(file, maxFileBytes);
      const bytes = await handle.readFile();
      if (bytes.length > maxFileBytes) throw tooLarge(file, maxFileBytes);
      text = bytes.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof DefinitionError) throw error;
    throw new DefinitionError(
      [issue('unreadable', '', `cannot read file: ${(error as Error).message}`, file)],
      'cannot load tools',
    );
  }
  return parseDocument(text, file);
}

function tooLarge(file: string, max: number): DefinitionError {
  return new DefinitionError(
    [issue('too_large', '', `the file is larger than ${max} bytes (maxFileBytes)`, file)],
    'cannot load tools',
  );
}

/** Parses JSON or YAML text (by extension; unknown extensions try JSON, then YAML). */
export function parseDocument(text: string, file: string): unknown {
  // A UTF-8 byte order mark (Windows editors write one) is invisible: JSON.parse would refuse
  // the file at "line 1, column 1" with nothing to see there.
  return parseText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, file);
}

function parseText(text: string, file: string): unknown {
  // An empty file parsed as YAML is null, then "expected a list of tool definitions": say what it is.
  if (text.trim() === '')
    throw new DefinitionError(
      [issue('syntax', '', 'the file is empty (expected JSON or YAML)', file)],
      'cannot load tools',
    );
  const ext = extname(file).toLowerCase();
  if (ext === '.json') {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new DefinitionError(
        [issue('syntax', '', jsonSyntaxMessage(text, (error as Error).message), file)],
        'cannot load tools',
      );
    }
  }
  const { parse: parseYaml, YAMLParseError } = yaml();
  try {
    return parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    const at = error instanceof YAMLParseError ? error.linePos?.[0] : undefined;
    // yaml's composer recurses; it turns its own stack overflow into a parse error.
    const said =
      error instanceof RangeError || /Maximum call stack/.test((error as Error).message)
        ? `nested too deeply (more than ${MAX_DEFINITION_DEPTH} levels are refused anyway)`
        : // yaml ends its first line with the place again and a colon before its code frame.
          ((error as Error).message.split('\n')[0] ?? '').replace(
            / at line \d+, column \d+:?$/,
            '',
          );
    const explained =
      at === undefined
        ? undefined
        : explainYamlError(
            text,
            error instanceof YAMLParseError ? error.code : undefined,
            at,
            said,
          );
    const where =
      explained === undefined ? '' : ` at line ${explained.line}, column ${explained.col}`;
    throw new DefinitionError(
      [issue('syntax', '', `invalid YAML${where}: ${explained?.reason ?? said}`, file)],
      'cannot load tools',
    );
  }
}

function buildToolSet(value: unknown, options: LoadToolsOptions, files: string[]): ToolSet {
  const file = options.file;
  const list = toolList(value);
  if (!list && isFixture(value)) {
    throw new DefinitionError(
      [
        issue(
          'schema',
          '',
          'this is a conversation fixture, not a tools file; run it with `switchboard test`',
          file,
        ),
      ],
      'cannot load tools',
    );
  }
  if (!list) {
    const misplaced = notAList(value);
    throw new DefinitionError(
      [
        misplaced !== undefined
          ? issue('schema', misplaced.path, misplaced.message, file)
          : issue(
              'schema',
              '',
              'expected a list of tool definitions, { "tools": [...] }, or one definition',
              file,
            ),
      ],
      'cannot load tools',
    );
  }
  const issues: DefinitionIssue[] = [];
  const tools = new Map<string, ToolDefinition>();
  const firstIndex = new Map<string, number>();
  const validators = new ValidatorFactory();
  const { rawDefinitionSchema } = definitionSchemas();
  const unfit = checkDocumentLimits(list, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, file);
  if (unfit.fatal) throw new DefinitionError(unfit.issues, 'cannot load tools');
  issues.push(...unfit.issues);

  list.forEach((written, index) => {
    // Too deep or cyclic: reported above; any later stage could overflow the stack on it.
    if (unfit.skip.has(index)) return;
    const normalised = normaliseDefinition(written, `tools[${index}]`, file);
    issues.push(...normalised.issues);
    const { value: raw, path } = normalised;
    issues.push(...unknownNestedFields(raw, path, file));
    const parsed = rawDefinitionSchema.safeParse(raw, { reportInput: true });
    if (!parsed.success) {
      issues.push(...deepestIssues(parsed.error.issues).map((zi) => zodIssue(zi, path, file)));
      // Report what can still be checked, so one pass lists every problem.
      issues.push(...partialChecks(raw, path, file, validators));
      const name = nameOf(raw);
      if (name !== undefined && !firstIndex.has(name)) firstIndex.set(name, index);
      else if (name !== undefined) issues.push(duplicate(path, name, firstIndex.get(name)!, file));
      return;
    }
    const name = parsed.data.tool.function.name;
    const seen = firstIndex.get(name);
    if (seen !== undefined) {
      issues.push(duplicate(path, name, seen, file));
    } else {
      firstIndex.set(name, index);
    }
    const resolved = resolveDefinition(parsed.data, { path, index, file, validators });
    issues.push(...resolved.issues);
    if (resolved.definition && seen === undefined) tools.set(name, resolved.definition);
  });

  issues.push(...lintWorkflows(tools, file));
  const blocking = issues.filter((i) => i.severity === 'error' || options.strict === true);
  if (blocking.length > 0) {
    const escalated = options.strict
      ? issues.map((i) => ({ ...i, severity: 'error' as const }))
      : issues;
    throw new DefinitionError(escalated);
  }
  return { tools, warnings: issues, files };
}

/**
 * Depth, cycles and expanded size of every definition, before any stage that may recurse or copy
 * reads them. A definition too deep or cyclic is skipped (reported); the document expanding past
 * the cap is fatal (nothing else is read).
 */
function checkDocumentLimits(
  list: readonly unknown[],
  maxBytes: number,
  file: string | undefined,
): { issues: DefinitionIssue[]; skip: Set<number>; fatal: boolean } {
  const issues: DefinitionIssue[] = [];
  const skip = new Set<number>();
  const memo: SizeMemo = new Map();
  let total = 0;
  list.forEach((written, index) => {
    const base = `tools[${index}]`;
    const size = measureValue(written, memo);
    if (size === 'cycle') {
      skip.add(index);
      issues.push(issue('cyclic', base, 'contains itself (a cycle of references)', file));
      return;
    }
    total += size.bytes;
    if (size.height > MAX_DEFINITION_DEPTH) {
      skip.add(index);
      const where = formatPath(base, pathTooDeep(written, MAX_DEFINITION_DEPTH, memo));
      issues.push(
        issue('too_deep', where, `nested more than ${MAX_DEFINITION_DEPTH} levels deep`, file),
      );
    }
  });
  if (total > maxBytes) {
    const message = `the definitions expand to more than ${maxBytes} bytes with aliases resolved (maxFileBytes)`;
    return { issues: [issue('too_large', '', message, file)], skip, fatal: true };
  }
  return { issues, skip, fatal: false };
}

function duplicate(
  path: string,
  name: string,
  first: number,
  file: string | undefined,
): DefinitionIssue {
  const where = joinPath(joinPath(joinPath(path, 'tool'), 'function'), 'name');
  return issue(
    'duplicate_tool',
    where,
    `duplicate tool name "${name}" (first defined at tools[${first}])`,
    file,
  );
}

function nameOf(raw: unknown): string | undefined {
  const fn = ownObject(ownObject(raw, 'tool'), 'function');
  const name = fn !== undefined ? getOwn(fn, 'name') : undefined;
  return typeof name === 'string' ? name : undefined;
}

function ownObject(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isPlainObject(value)) return undefined;
  const child = getOwn(value, key);
  return isPlainObject(child) ? child : undefined;
}

/** Checks of a definition whose shape is wrong elsewhere: its rules, URL and JSON Schema. */
function partialChecks(
  raw: unknown,
  path: string,
  file: string | undefined,
  validators: ValidatorFactory,
): DefinitionIssue[] {
  const out: DefinitionIssue[] = [];
  const fn = ownObject(ownObject(raw, 'tool'), 'function');
  const parameters = fn !== undefined ? getOwn(fn, 'parameters') : undefined;
  // Not an object: the shape check above already says so.
  if (isPlainObject(parameters)) {
    const where = formatPath(path, ['tool', 'function', 'parameters']);
    out.push(...checkParameters({ written: parameters, path: where, file, validators }).issues);
  }
  const defaults = ownObject(raw, 'defaults');
  if (defaults !== undefined) {
    for (const found of compileDefaults(defaults, { path: joinPath(path, 'defaults') }).issues) {
      out.push(file !== undefined && found.file === undefined ? { ...found, file } : found);
    }
  }
  const endpoint = ownObject(raw, 'endpoint');
  const url =
    endpoint !== undefined && Object.hasOwn(endpoint, 'url') ? endpoint['url'] : undefined;
  if (typeof url === 'string') {
    for (const problem of checkEndpointUrl(url).problems) {
      out.push(issue('bad_url', joinPath(joinPath(path, 'endpoint'), 'url'), problem, file));
    }
  }
  return out;
}

function isFixture(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.hasOwn(value, 'turns')
  );
}

/**
 * The definitions of a tools file: a list, `{ "tools": [...] }`, Syllable's list response
 * `{ "items": [...] }` (what `syllable tools list -o json` prints), or one definition on its own
 * (a definition, or an API tool object with a `definition`, as pasted from Syllable's docs).
 */
function issue(
  code: string,
  path: string,
  message: string,
  file: string | undefined,
): DefinitionIssue {
  return { code, severity: 'error', path, message, ...(file !== undefined ? { file } : {}) };
}

/** Loads the CEL evaluator (`@bufbuild/cel`) the first time a definition names CEL. */
async function loadCel(): Promise<void> {
  if (celCompiler() === undefined) await import('../expressions/cel-register.js');
}
