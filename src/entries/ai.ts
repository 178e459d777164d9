/**
 * switchboard/ai — a switchboard tool set as Vercel `ai` tools (docs/adapters.md); `ai` is an
 * optional peer dependency, loaded only when this entry is imported.
 */
export { createAiTools, type AiTools, type AiToolsOptions } from '../adapters/ai.js';
export type { CallSessionOptions } from '../call-runner/served-tools.js';
export { SwitchboardToolError, type AdapterOptions, type SpokenLine } from '../adapters/core.js';
