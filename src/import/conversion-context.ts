/**
 * The warning collector of one conversion and the vendor-input checks every platform shares:
 * zod parsing that fails with the file and JSON path of each problem (a {@link DefinitionError}),
 * and the "unknown field" warnings that keep lenient parsing from dropping anything silently.
 */
import type { z } from 'zod';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import {
  DEFAULT_MAX_FILE_BYTES,
  MAX_DEFINITION_DEPTH,
  measureValue,
  pathTooDeep,
  type SizeMemo,
} from '../definition/document-limits.js';
import { formatPath } from '../definition/json-path.js';
import { isPlainObject, type PlainObject } from '../own-data.js';
import { printable } from './printable.js';
import type { ConversionWarning, ImportResult, ToolDefinitionJson } from './types.js';

/** A field relative to a tool: segments such as `['server', 'headers', 'X-Api-Key']`. */
/** The warning for a vendor field no mapping reads (also how a hint tells a foreign document). */
export const UNKNOWN_FIELD = 'not a field switchboard maps; ignored';

export type FieldPath = readonly (string | number)[];

/** Warnings of one tool: knows the tool's path in the file, so callers name fields only. */
export class ToolWarnings {
  readonly #out: ConversionWarning[];
  readonly base: string;
  tool: string | undefined;

  constructor(out: ConversionWarning[], base: string, tool?: string) {
    this.#out = out;
    this.base = base;
    this.tool = tool;
  }

  /** Records that `field` did not map exactly, and why. */
  warn(field: FieldPath, message: string): void {
    this.#out.push({
      path: printable(formatPath(this.base, field)),
      field: printable(formatPath('', field)),
      // Messages quote vendor text (header names and values, types): a terminal must not obey it.
      message: printable(message),
      ...(this.tool !== undefined ? { tool: this.tool } : {}),
    });
  }

  /** Warns about every own key of `value` not in `known` (vendor fields switchboard ignores). */
  unknownFields(value: unknown, known: readonly string[], under: FieldPath = []): void {
    if (!isPlainObject(value)) return;
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) this.warn([...under, key], UNKNOWN_FIELD);
    }
  }
}

/** What marks a tool item as the platform's own, and what as another platform's. */
export interface ToolMarks {
  /** Fields only the platform's own tools have; one present makes the item its own. */
  readonly own: readonly string[];
  /** Fields of other platforms' tools, each with whose it is (`type` → `a Vapi, Retell or ElevenLabs tool's`). */
  readonly foreign: ReadonlyMap<string, string>;
}

/**
 * A tool item with none of the platform's own fields and one of another platform's is that
 * platform's tool, not one of ours read leniently: the importer warns with this (naming the
 * field) and skips it, so a file of only such items is refused and the wrong-`--from` hint can
 * name the right platform. Returns the warning's field and message, or undefined for our own.
 */
export function foreignTool(
  item: PlainObject,
  marks: ToolMarks,
  platform: string,
): { field: string; message: string } | undefined {
  if (marks.own.some((key) => Object.hasOwn(item, key))) return undefined;
  for (const [key, whose] of marks.foreign)
    if (Object.hasOwn(item, key))
      return {
        field: key,
        message: `\`${key}\` is ${whose} field, and none of the ${platform} tool fields (${marks.own.join(', ')}) is here: another platform's tool; not imported`,
      };
  return undefined;
}

/** Where a vendor file's problems are reported. */
export interface SourceInfo {
  /** The file name, for messages. */
  readonly file?: string;
  /** The platform's display name (`Vapi`, `ElevenLabs`…). */
  readonly platform: string;
}

/**
 * Parses `value` with a vendor schema; a mismatch throws a {@link DefinitionError} whose issues
 * name the file and the path (`tools[2].server.url: expected a string`).
 */
export function parseVendor<S extends z.ZodType>(
  schema: S,
  value: unknown,
  base: string,
  source: SourceInfo,
): z.output<S> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return parsed.data;
  throw vendorError(
    parsed.error.issues.map((zi) => {
      const missing = zi.code === 'invalid_type' && zi.input === undefined;
      return { path: formatPath(base, zi.path), message: missing ? 'is required' : zi.message };
    }),
    source,
  );
}

/** A {@link DefinitionError} for problems of a vendor file. */
export function vendorError(
  problems: readonly { path: string; message: string }[],
  source: SourceInfo,
  also: readonly DefinitionIssue[] = [],
): DefinitionError {
  const issues: DefinitionIssue[] = problems.map((p) => ({
    code: 'vendor_schema',
    severity: 'error',
    path: printable(p.path),
    message: printable(p.message),
    ...(source.file !== undefined ? { file: source.file } : {}),
  }));
  return new DefinitionError([...issues, ...also], `invalid ${source.platform} tools`);
}

/** The error for a document that holds no tools where the platform puts them. */
export function unrecognizedDocument(expected: string, source: SourceInfo): DefinitionError {
  return vendorError([{ path: '', message: `expected ${expected}` }], source);
}

/** The tool list of a vendor document: the first of `keys` (dotted) holding a list, else undefined. */
export function findList(
  value: unknown,
  keys: readonly string[],
): { list: unknown[]; base: string } | undefined {
  if (Array.isArray(value)) return { list: value, base: 'tools' };
  for (const key of keys) {
    let at: unknown = value;
    for (const part of key.split('.')) at = isPlainObject(at) ? at[part] : undefined;
    if (Array.isArray(at)) return { list: at, base: key };
  }
  return undefined;
}

/** How {@link locateTools} finds the tools of a platform's document. */
export interface ToolLocation {
  /** Where the platform puts its tool list, dotted, first match wins. */
  readonly keys: readonly string[];
  /** True for an object that is one tool (the document is that tool alone). */
  readonly isOneTool: (value: PlainObject) => boolean;
  /** What a document should be, for the error (`a list of Vapi tools, …`). */
  readonly expected: string;
  readonly source: SourceInfo;
}

/**
 * The tool list of a vendor document: the document as a list, the first of `keys` holding one,
 * or the document as one tool; anything else throws a {@link DefinitionError} saying what was
 * expected.
 */
export function locateTools(
  value: unknown,
  location: ToolLocation,
): { list: unknown[]; base: string } {
  const found =
    findList(value, location.keys) ??
    (isPlainObject(value) && location.isOneTool(value)
      ? { list: [value], base: 'tools' }
      : undefined);
  if (found === undefined) throw unrecognizedDocument(location.expected, location.source);
  checkVendorLimits([found], location.source);
  return found;
}

/**
 * Nesting a vendor tool may have: the definition limit less the two levels a conversion can add
 * (Retell's `parameters` and Vapi's `body` sit two levels higher in a tool than in a definition),
 * so whatever is imported also loads.
 */
export const MAX_VENDOR_TOOL_DEPTH = MAX_DEFINITION_DEPTH - 2;

/**
 * The limits of a tools document, applied to each vendor tool before anything reads it (the
 * conversion recurses): nesting, cycles, and the size with YAML aliases expanded. Throws a
 * `vendor_schema` {@link DefinitionError} naming the path of each tool over a limit.
 */
export function checkVendorLimits(
  lists: readonly { list: readonly unknown[]; base: string }[],
  source: SourceInfo,
): void {
  const memo: SizeMemo = new Map();
  const problems: { path: string; message: string }[] = [];
  let bytes = 0;
  for (const { list, base } of lists)
    list.forEach((item, index) => {
      const at = `${base}[${index}]`;
      const size = measureValue(item, memo);
      if (size === 'cycle') {
        problems.push({ path: at, message: 'contains itself (a cycle of YAML aliases)' });
        return;
      }
      bytes += size.bytes;
      if (size.height > MAX_VENDOR_TOOL_DEPTH)
        problems.push({
          path: formatPath(at, pathTooDeep(item, MAX_VENDOR_TOOL_DEPTH, memo)),
          message: `nested more than ${MAX_VENDOR_TOOL_DEPTH} levels deep (a tool is at most ${MAX_VENDOR_TOOL_DEPTH})`,
        });
    });
  if (bytes > DEFAULT_MAX_FILE_BYTES)
    problems.unshift({
      path: '',
      message: `the tools expand to more than ${DEFAULT_MAX_FILE_BYTES} bytes with aliases resolved`,
    });
  if (problems.length > 0) throw vendorError(problems, source);
}

/**
 * The result of an import, or the error when it holds no tool: importing nothing is a mistake
 * (the wrong file, the wrong `--from`), reported with what the platform's document looks like and
 * each item's reason for being skipped (the warnings, as warning issues).
 */
export function importResult(
  tools: ToolDefinitionJson[],
  warnings: ConversionWarning[],
  expected: string,
  items: readonly unknown[],
  source: SourceInfo,
): ImportResult {
  if (tools.length > 0) return { tools, warnings };
  const hint = items.some(isSyllableDefinition)
    ? ' (this looks like a switchboard tools file already: check it with `switchboard validate`)'
    : '';
  const message = `no tool to import: expected ${expected}, holding at least one tool${hint}`;
  const skipped = warnings.map((w) => ({
    code: 'vendor_schema',
    severity: 'warning' as const,
    path: w.path,
    message: w.message,
    ...(source.file !== undefined ? { file: source.file } : {}),
  }));
  throw vendorError([{ path: '', message }], source, skipped);
}

function isSyllableDefinition(item: unknown): boolean {
  const tool = isPlainObject(item) ? item['tool'] : undefined;
  return isPlainObject(tool) && isPlainObject(tool['function']);
}
