/**
 * `importTools`: a hosted platform's tool JSON → Syllable-format definitions that `loadTools`
 * accepts, with a warning for every vendor field that did not map exactly (docs/import.md).
 */
import type { SourceInfo } from './conversion-context.js';
import { importElevenLabs } from './elevenlabs.js';
import { importRetell } from './retell.js';
import type { ImportResult, Platform } from './types.js';
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
  const source: SourceInfo = {
    platform: PLATFORM_NAMES[options.from],
    ...(options.file !== undefined ? { file: options.file } : {}),
  };
  switch (options.from) {
    case 'vapi':
      return importVapi(value, source);
    case 'elevenlabs':
      return importElevenLabs(value, source);
    case 'retell':
      return importRetell(value, source);
    case 'ultravox':
      return importUltravox(value, source);
    default: {
      const _exhaustive: never = options.from;
      throw new Error(`unknown platform ${String(_exhaustive)}`);
    }
  }
}
