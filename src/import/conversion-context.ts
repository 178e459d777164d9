/**
 * The warning collector of one conversion and the vendor-input checks every platform shares:
 * zod parsing that fails with the file and JSON path of each problem (a {@link DefinitionError}),
 * and the "unknown field" warnings that keep lenient parsing from dropping anything silently.
 */
import type { z } from 'zod';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { formatPath } from '../definition/json-path.js';
import { isPlainObject, type PlainObject } from '../transform/own-data.js';
import type { ConversionWarning } from './types.js';

/** A field relative to a tool: segments such as `['server', 'headers', 'X-Api-Key']`. */
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
      path: formatPath(this.base, field),
      field: formatPath('', field),
      message,
      ...(this.tool !== undefined ? { tool: this.tool } : {}),
    });
  }

  /** Warns about every own key of `value` not in `known` (vendor fields switchboard ignores). */
  unknownFields(value: unknown, known: readonly string[], under: FieldPath = []): void {
    if (!isPlainObject(value)) return;
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) this.warn([...under, key], 'not a field switchboard maps; ignored');
    }
  }
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
): DefinitionError {
  const issues: DefinitionIssue[] = problems.map((p) => ({
    code: 'vendor_schema',
    severity: 'error',
    path: p.path,
    message: p.message,
    ...(source.file !== undefined ? { file: source.file } : {}),
  }));
  return new DefinitionError(issues, `invalid ${source.platform} tools`);
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
  return found;
}
