/**
 * switchboard/livekit — a switchboard tool set as LiveKit Agents function tools
 * (docs/adapters.md); `@livekit/agents` is an optional peer dependency, loaded only when this
 * entry is imported.
 */
export {
  createLiveKitTools,
  type LiveKitTools,
  type LiveKitToolsOptions,
} from '../adapters/livekit.js';
export type { CallSessionOptions } from '../call-runner/served-tools.js';
export { type AdapterOptions, type SpokenLine } from '../adapters/core.js';
