/**
 * switchboard/import — import tools from hosted voice platforms (Vapi, ElevenLabs, Retell,
 * Ultravox) and export them back (docs/import.md).
 */
// --- import/export of hosted platforms' tools (docs/import.md) ---------------------------------
export { importTools, PLATFORM_NAMES, type ImportToolsOptions } from '../import/import-tools.js';
export { exportTools, type ExportToolsOptions } from '../import/export-tools.js';
export {
  PLATFORMS,
  type Platform,
  type ConversionWarning,
  type ImportResult,
  type ExportResult,
  type ToolDefinitionJson,
  type StaticParameterJson,
  type ImportedOptionsJson,
  type JsonSchemaJson,
} from '../import/types.js';
