/**
 * switchboard — what every bot needs: load tool definitions, run sessions over a model, act on
 * tool calls, and read failures. Other capabilities have entries of their own (docs/architecture.md,
 * "Package entries"): `switchboard/testing`, `/realtime`, `/redis`, `/import`, `/serve`,
 * `/handlers`, `/transform`.
 */
// --- errors ---------------------------------------------------------------------------------
export * from './errors.js';

// --- definition (load, lint, export) --------------------------------------------------------
export type * from './definition/types.js';
export type * from './definition/validator-types.js';
export {
  loadTools,
  readToolsFile,
  parseDocument,
  type LoadToolsOptions,
  type ReadToolsFileOptions,
} from './definition/load.js';
export { mergeToolSets } from './definition/merge-tool-sets.js';
export { DEFAULT_MAX_FILE_BYTES, MAX_DEFINITION_DEPTH } from './definition/document-limits.js';

export {
  toChatTools,
  toResponsesTools,
  type ExportView,
  type ResponsesFunctionTool,
} from './definition/export.js';
// --- host actions and the shared connection pool -------------------------------------------
export type * from './handlers/types.js';
export { actionResult, isActionResult } from './handlers/action-result.js';
export type { BrandedActionResult } from './handlers/action-result.js';
export {
  connectionPools,
  createConnectionPools,
  DEFAULT_CONNECTIONS_PER_ORIGIN,
  type ConnectionPools,
  type ConnectionPoolsOptions,
} from './handlers/endpoint/connection-pools.js';
// --- models ---------------------------------------------------------------------------------
export type * from './models/types.js';
export { ModelError, isModelError, type ModelErrorCode } from './models/errors.js';
export { openaiModel, type OpenAIModelOptions } from './models/openai.js';
export {
  withTextMarkers,
  INVALID_TOOL_CALL_NAME,
  type TextMarkerOptions,
} from './models/text-markers.js';
export { MarkerParser, type MarkerPiece } from './models/marker-parser.js';
export {
  withJsonToolCalls,
  JSON_NO_TOOL,
  type JsonToolCallOptions,
} from './models/json-tool-calls.js';

// --- session --------------------------------------------------------------------------------
export type * from './session/types.js';
export {
  createSession,
  restoreSession,
  resumeSession,
  SessionEndedError,
} from './session/create-session.js';
export {
  createAgent,
  type Agent,
  type AgentBuilder,
  type AgentSessionOptions,
} from './session/agent-builder.js';
export { DEFAULT_MAX_TOOL_ROUNDS } from './session/run-turn.js';
export {
  DEFAULT_MAX_ARGUMENT_BYTES,
  DEFAULT_MAX_ARGUMENT_DEPTH,
  DEFAULT_MAX_FINAL_ARGUMENT_BYTES,
  DEFAULT_MAX_CALLS_PER_ANSWER,
  DEFAULT_MAX_CONCURRENT_ENDPOINT_CALLS,
} from './session/argument-limits.js';
export { DEFAULT_BRIDGE_THRESHOLD_SECS } from './session/bridge.js';
export { InMemorySessionStore } from './session/store.js';
export {
  warmUp,
  DEFAULT_WARM_UP_TURNS,
  type WarmUpOptions,
  type WarmUpReport,
} from './session/warm-up.js';
export {
  SessionStoreError,
  StaleSessionError,
  SessionBusyError,
  SessionLeaseLostError,
  InvalidSnapshotError,
  SessionStoreFailedError,
  crashedTurnMessages,
  outcomeUnknownError,
  type SessionCoordination,
  type SessionLease,
  type StoredSession,
  type TurnJournal,
  type JournalEntry,
  type JournalRefusal,
  type OpenTurn,
} from './session/coordination.js';
export { parseSnapshot, SNAPSHOT_LIMITS, type SnapshotCheckOptions } from './session/snapshot.js';
export type { HostErrorContext } from './session/types.js';

// --- observability (OpenTelemetry spans, latency reports, the failure taxonomy) ---------------
export type * from './observability/types.js';
export { NO_TIMINGS } from './observability/turn-tracing.js';
export {
  CALLER_SPEECH,
  failureForCaller,
  failureForHost,
  failureForModel,
  failureInfo,
  failureOf,
  isRetryableModelError,
  isRetryableToolError,
  type CallerMessages,
  type CallerRenderOptions,
  type CallerSpeech,
  type Failure,
  type FailureBlame,
  type FailureCode,
  type FailureInfo,
  type HostFailure,
  type SessionFailureCode,
} from './session/failures.js';

// --- workflow types (context.task) ------------------------------------------------------------
export type * from './definition/workflow/types.js';
export type { WorkflowState } from './session/workflow/state.js';
// --- voice policy as data (docs/voice.md) ---------------------------------------------------
export {
  sideEffectClass,
  defaultSideEffectClass,
  isCancellable,
  mayRetry,
  dedupesIdenticalCalls,
  idempotencyKey,
  SIDE_EFFECT_CLASSES,
} from './definition/side-effects.js';
export {
  defaultVoicePolicy,
  DEFAULT_SPEECH_MAX_WAIT_MS,
  DEFAULT_PRE_TOOL_DELAY_MS,
  SPOKEN_ERROR_CLASSES,
} from './definition/voice-options.js';
