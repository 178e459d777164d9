/**
 * `exportTools`: loaded Syllable-format definitions → a platform's tool JSON, with a warning for
 * everything the platform cannot express (a `defaults` rule is named by its key). The reverse of
 * `importTools` where representable (docs/import.md).
 */
import type { ToolSet } from '../definition/types.js';
import { checkOptions, fields, oneOf, type Check } from '../option-checks.js';
import { exportElevenLabs } from './elevenlabs-export.js';
import { exportRetell } from './retell-export.js';
import { PLATFORMS, type ExportResult, type Platform } from './types.js';
import { exportUltravox } from './ultravox-export.js';
import { exportVapi } from './vapi-export.js';

/** Options of {@link exportTools}. */
export interface ExportToolsOptions {
  /** The platform to write for. */
  readonly to: Platform;
}

// Checked first, as importTools' options are: a TypeError naming what is wrong.
const EXPORT_OPTIONS = fields(
  { to: oneOf(...PLATFORMS) },
  { to: `the platform to write for: ${PLATFORMS.join(', ')}` },
);
/** A loaded tool set (what `loadTools` returns), not the JSON of a tools file. */
const TOOL_SET: Check = (value, _path, sink) => {
  const tools = (value as { tools?: unknown } | null | undefined)?.tools;
  if (!(tools instanceof Map))
    sink.problem(
      'set',
      'expected a tool set from loadTools (its tools in a Map): call loadTools first',
    );
};

/**
 * Converts a loaded tool set (from `loadTools`, so it is already validated) to a platform's tools,
 * in the order of the tools file.
 */
export function exportTools(set: ToolSet, options: ExportToolsOptions): ExportResult {
  checkOptions(TOOL_SET, set, { caller: 'exportTools', error: 'type' });
  checkOptions(EXPORT_OPTIONS, options, { caller: 'exportTools', error: 'type' });
  const defs = [...set.tools.values()].sort((a, b) => a.source.index - b.source.index);
  switch (options.to) {
    case 'vapi':
      return exportVapi(defs);
    case 'elevenlabs':
      return exportElevenLabs(defs);
    case 'retell':
      return exportRetell(defs);
    case 'ultravox':
      return exportUltravox(defs);
    default: {
      const _exhaustive: never = options.to;
      throw new Error(`unknown platform ${String(_exhaustive)}`);
    }
  }
}
