/**
 * `exportTools`: loaded Syllable-format definitions → a platform's tool JSON, with a warning for
 * everything the platform cannot express (a `defaults` rule is named by its key). The reverse of
 * `importTools` where representable (docs/import.md).
 */
import type { ToolSet } from '../definition/types.js';
import { exportElevenLabs } from './elevenlabs-export.js';
import { exportRetell } from './retell-export.js';
import type { ExportResult, Platform } from './types.js';
import { exportUltravox } from './ultravox-export.js';
import { exportVapi } from './vapi-export.js';

/** Options of {@link exportTools}. */
export interface ExportToolsOptions {
  /** The platform to write for. */
  readonly to: Platform;
}

/**
 * Converts a loaded tool set (from `loadTools`, so it is already validated) to a platform's tools,
 * in the order of the tools file.
 */
export function exportTools(set: ToolSet, options: ExportToolsOptions): ExportResult {
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
