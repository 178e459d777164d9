/**
 * `importTools`: a hosted platform's tool JSON → Syllable-format definitions that `loadTools`
 * accepts, with a warning for every vendor field that did not map exactly (docs/import.md).
 */
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { checkOptions, fields, isString, oneOf } from '../option-checks.js';
import { UNKNOWN_FIELD, type SourceInfo } from './conversion-context.js';
import { importElevenLabs } from './elevenlabs.js';
import { importRetell } from './retell.js';
import { PLATFORMS, type ImportResult, type Platform } from './types.js';
import { importUltravox } from './ultravox.js';
import { importVapi } from './vapi.js';

/** Options of {@link importTools}. */
export interface ImportToolsOptions {
  /** The platform the JSON comes from. */
  readonly from: Platform;
  /** The file it was read from, for error messages. */
  readonly file?: string;
}

/** Display names of the platforms. */
export const PLATFORM_NAMES: Readonly<Record<Platform, string>> = {
  vapi: 'Vapi',
  elevenlabs: 'ElevenLabs',
  retell: 'Retell',
  ultravox: 'Ultravox',
};

/**
 * Converts a platform's parsed tool JSON.
 *
 * @throws DefinitionError (code `vendor_schema`) naming the file and the JSON path of each
 *   malformed field (`tools[2].server.url: expected a string`), of a tool over the limits of a
 *   tools file (nesting, cycles, size), or, with an empty path, a document holding no tool to
 *   import (then each skipped item's warning is a warning issue). Unknown fields only warn.
 */
export function importTools(value: unknown, options: ImportToolsOptions): ImportResult {
  checkOptions(IMPORT_OPTIONS, options, { caller: 'importTools', error: 'type' });
  try {
    return importFrom(options.from, value, options.file);
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    throw withOtherPlatform(error, value, options);
  }
}

// Checked before anything is read: a JavaScript caller's `importTools(doc)` or `from: 'vapy'`
// gets a TypeError naming the option, not a crash inside the importer.
const IMPORT_OPTIONS = fields(
  { from: oneOf(...PLATFORMS), file: isString },
  { from: `the platform the JSON comes from: ${PLATFORMS.join(', ')}` },
);

const IMPORTERS: Readonly<Record<Platform, (value: unknown, source: SourceInfo) => ImportResult>> =
  {
    vapi: importVapi,
    elevenlabs: importElevenLabs,
    retell: importRetell,
    ultravox: importUltravox,
  };

function importFrom(from: Platform, value: unknown, file: string | undefined): ImportResult {
  const source: SourceInfo = {
    platform: PLATFORM_NAMES[from],
    ...(file !== undefined ? { file } : {}),
  };
  return IMPORTERS[from](value, source);
}

/**
 * A document refused by one platform that exactly one other platform imports, every field of it
 * known there, was most likely given the wrong `--from`: the error says which. Importing is the
 * recogniser, so the hint never names a platform that would refuse the document too.
 */
function withOtherPlatform(
  error: DefinitionError,
  value: unknown,
  options: ImportToolsOptions,
): DefinitionError {
  const readers = PLATFORMS.filter((p) => p !== options.from).flatMap((p) => {
    const result = tryImport(p, value);
    return result === undefined ? [] : [{ platform: p, result }];
  });
  // A second reader makes it a guess; so does a reader that ignores some of the fields.
  if (readers.length !== 1 || !knowsEveryField(readers[0]?.result)) return error;
  const other = (readers[0] as { platform: Platform }).platform;
  const hint: DefinitionIssue = {
    code: 'vendor_schema',
    severity: 'error',
    path: '',
    message: `this looks like ${article(PLATFORM_NAMES[other])} ${PLATFORM_NAMES[other]} document: --from ${other}?`,
    ...(options.file !== undefined ? { file: options.file } : {}),
  };
  return new DefinitionError(
    [...error.issues, hint],
    `invalid ${PLATFORM_NAMES[options.from]} tools`,
  );
}

function tryImport(platform: Platform, value: unknown): ImportResult | undefined {
  try {
    return importFrom(platform, value, undefined);
  } catch {
    return undefined;
  }
}

/**
 * Whether every field of the document is one the platform maps. Some platforms take any object
 * with a tool list (Ultravox imports a Vapi tool with a mistake as an action, ignoring its
 * `function` and `server`): fields it does not know say the document is not its own.
 */
function knowsEveryField(result: ImportResult | undefined): boolean {
  return result !== undefined && result.warnings.every((w) => w.message !== UNKNOWN_FIELD);
}

function article(name: string): string {
  return /^[AEIOU]/.test(name) ? 'an' : 'a';
}
