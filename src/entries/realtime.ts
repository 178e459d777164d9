/**
 * switchboard/realtime — a session over the OpenAI Realtime API (docs/realtime.md). Loads `ws`
 * only when this entry is imported.
 */
// --- realtime (OpenAI Realtime speech-to-speech sessions) ------------------------------------
export type * from '../realtime/types.js';
export { attachRealtime, DEFAULT_TRANSCRIPTION_MODEL } from '../realtime/attach-realtime.js';
export {
  connectRealtime,
  wsRealtimeConnection,
  type ConnectRealtimeOptions,
  type ClosableRealtimeConnection,
  type WsSocket,
} from '../realtime/connect-realtime.js';

export { toRealtimeTools, type RealtimeFunctionTool } from '../definition/export.js';
