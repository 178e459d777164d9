/**
 * switchboard — the public API. Each area adds its exports in its own section below.
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
export { DEFAULT_MAX_FILE_BYTES, MAX_DEFINITION_DEPTH } from './definition/document-limits.js';
export { MAX_PATTERN_INPUT_LENGTH, MAX_PATTERN_PROGRAM_SIZE } from './definition/linear-regexp.js';
export { MAX_PATH_SEGMENTS } from './transform/field-path.js';
export {
  toChatTools,
  toResponsesTools,
  toRealtimeTools,
  type ExportView,
  type ResponsesFunctionTool,
  type RealtimeFunctionTool,
} from './definition/export.js';
export { checkEndpointUrl, type EndpointUrlCheck } from './definition/endpoint-url.js';

// --- import/export of hosted platforms' tools (docs/import.md) ---------------------------------
export { importTools, PLATFORM_NAMES, type ImportToolsOptions } from './import/import-tools.js';
export { exportTools, type ExportToolsOptions } from './import/export-tools.js';
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
} from './import/types.js';

// --- transform ------------------------------------------------------------------------------
export type * from './transform/types.js';
export { compileDefaults, type CompileDefaultsOptions } from './transform/compile-defaults.js';
export {
  applyStaticParameters,
  type ApplyStaticParametersOptions,
} from './transform/static-parameters.js';
export { renderMustache, checkMustache, type MustacheView } from './transform/mustache.js';
export {
  compileTemplate,
  MAX_RENDERED_LENGTH,
  type CompiledTemplate,
  type RenderFailure,
  type TemplateProblem,
} from './transform/template.js';
export { MAX_SPEC_NUMBER } from './transform/format-spec.js';

// --- handlers -------------------------------------------------------------------------------
export type * from './handlers/types.js';
export {
  createEndpointHandler,
  DEFAULT_MAX_HEADER_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
} from './handlers/endpoint/endpoint-handler.js';
export type {
  EndpointHandler,
  EndpointHandlerOptions,
} from './handlers/endpoint/endpoint-handler.js';
export type { HostResolver } from './handlers/endpoint/network-policy.js';
export { SecretSet, MIN_SCRUB_LENGTH } from './handlers/endpoint/secret-set.js';
export {
  connectionPools,
  createConnectionPools,
  DEFAULT_CONNECTIONS_PER_ORIGIN,
  type ConnectionPools,
  type ConnectionPoolsOptions,
  type PoolRequest,
  type SharedPool,
} from './handlers/endpoint/connection-pools.js';
export type { Abortable } from './handlers/endpoint/deadline.js';
export { createActionHandler, DEFAULT_ACTION_TIMEOUT_SECS } from './handlers/action-handler.js';
export type { ActionHandlerOptions } from './handlers/action-handler.js';
export { actionResult, isActionResult } from './handlers/action-result.js';
export type { BrandedActionResult } from './handlers/action-result.js';
export {
  createContextHandler,
  canonicalLanguage,
  MAX_SAY_CHARS,
} from './handlers/context-handler.js';
export type { ContextHandlerOptions } from './handlers/context-handler.js';
export { createLogHandler } from './handlers/log-handler.js';
export type { LogHandlerOptions } from './handlers/log-handler.js';
export { applySaveRules, checkSaveExpression } from './handlers/save.js';

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

// --- session --------------------------------------------------------------------------------
export type * from './session/types.js';
export {
  createSession,
  restoreSession,
  resumeSession,
  SessionEndedError,
} from './session/create-session.js';
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
  RedisSessionStore,
  type RedisSessionStoreOptions,
  type RedisEvalClient,
} from './session/redis-store.js';
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
export { isJournaled } from './session/execute-tool-call.js';
export { parseSnapshot, SNAPSHOT_LIMITS, type SnapshotCheckOptions } from './session/snapshot.js';
export type { HostErrorContext } from './session/turn-stream.js';
export {
  runAgent,
  parseChatHistory,
  type RunAgentOptions,
  type ChatHistoryInput,
} from './session/run-agent.js';
export {
  AGENT_OUTPUT_SCHEMA,
  toAgentOutput,
  toAgentTrace,
  outputText,
  type AgentOutput,
  type AgentTrace,
} from './session/agent-output.js';
export { applyAgentConfig, parseAgentConfig, AgentConfigError } from './session/agent-config.js';
export {
  runWithPolicy,
  effectivePolicy,
  type CallPolicy,
  type RunWithPolicyOptions,
} from './session/call-policy.js';
export { turnLimits, type TurnLimits } from './session/turn-limits.js';

// --- harness (fixtures, assertions, reporters) ----------------------------------------------
export {
  runFixture,
  sessionOptionsOf,
  type RunFixtureOptions,
  type FixtureObserver,
} from './harness/run-fixture.js';
export {
  runFixtures,
  discoverFixtures,
  type RunFixturesOptions,
  type Discovery,
  type DiscoverOptions,
} from './harness/run-fixtures.js';
export {
  loadFixture,
  parseFixture,
  mergeToolSets,
  type LoadedFixture,
  type LoadFixtureOptions,
} from './harness/load-fixture.js';
export {
  fixtureSchema,
  type Fixture,
  type FixtureTurn,
  type TurnExpect,
  type ModelStep,
  type HttpExchange,
  type FixtureAction,
} from './harness/fixture-schema.js';
export {
  summarize,
  exitCodeOf,
  type FixtureResult,
  type FixtureFailure,
  type FailureKind,
  type FixtureStatus,
  type RunSummary,
} from './harness/fixture-result.js';
export { matchValue, type Mismatch, type MatchMode, type MatchOptions } from './harness/match.js';
export { checkTurn, type CheckTurnOptions } from './harness/check-turn.js';
export {
  observeTurn,
  type ObservedTurn,
  type ObservedToolCall,
  type ObservedToolError,
} from './harness/observe.js';
export {
  createHttpDouble,
  type HttpDouble,
  type HttpDoubleOptions,
  type UnusedExchange,
} from './harness/http-double.js';
export type { RecordedRequest } from './harness/recorded-request.js';
export {
  createRecordingDispatcher,
  type RecordingDispatcher,
  type RecordedExchange,
} from './harness/recording-dispatcher.js';
export { RecordingModel } from './harness/recording-model.js';
export { ManualModel, type ManualStep, type ManualModelOptions } from './harness/manual-model.js';
export {
  buildFixture,
  fixtureToYaml,
  type BuildFixtureOptions,
  type RecordedTurn,
} from './harness/fixture-writer.js';
export {
  transformCall,
  type TransformCallOptions,
  type TransformCallResult,
} from './harness/transform-call.js';
export { createNarrator, type NarratorOptions } from './harness/narrator.js';
export { changeSession, type SessionChanges } from './harness/session-changes.js';
export {
  report,
  REPORTERS,
  type ReporterName,
  type ReportOptions,
} from './harness/reporters/index.js';
export { humanReport } from './harness/reporters/human.js';
export { junitReport, escapeXml } from './harness/reporters/junit.js';
export { tapReport } from './harness/reporters/tap.js';
export { jsonReport } from './harness/reporters/json.js';
export {
  openFixtureTransport,
  type FixtureTransport,
  type FixtureTransportName,
} from './harness/fixture-transport.js';

// --- realtime (OpenAI Realtime speech-to-speech sessions) ------------------------------------
export type * from './realtime/types.js';
export { attachRealtime, DEFAULT_TRANSCRIPTION_MODEL } from './realtime/attach-realtime.js';
export {
  connectRealtime,
  wsRealtimeConnection,
  type ConnectRealtimeOptions,
  type ClosableRealtimeConnection,
  type WsSocket,
} from './realtime/connect-realtime.js';

// --- observability (OpenTelemetry spans, latency reports, the failure taxonomy) ---------------
export type * from './observability/types.js';
export { NO_TIMINGS } from './observability/turn-tracing.js';
export { timingLine } from './harness/narrator.js';
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
} from './failures.js';

// --- workflows (context.task: Step Workflows, expression and event tasks) ---------------------
export type * from './workflow/types.js';
export type { WorkflowState } from './workflow/state.js';
export {
  compileExpression,
  compileCel,
  compileJmesPath,
  isTruthy,
  MAX_EXPRESSION_LENGTH,
  MAX_EXPRESSION_DEPTH,
  MAX_COMPREHENSION_NESTING,
  type CompiledExpression,
  type CompileResult,
  type ExpressionLanguage,
} from './workflow/expression.js';
export {
  MAX_EVALUATION_STEPS,
  EVALUATION_TIME_SLICE_MS,
  MAX_RESULT_BYTES,
  MAX_RESULT_DEPTH,
  type BudgetOptions,
} from './workflow/budget.js';
export { describeWorkflows } from './workflow/describe.js';

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

// --- serve (the agent over HTTP) -------------------------------------------------------------
export {
  createAgentServer,
  DEFAULT_MAX_BODY_BYTES,
  type AgentServer,
  type AgentServerOptions,
} from './serve/agent-server.js';
export { DEFAULT_SERVER_LIMITS, type AgentServerLimits } from './serve/server-limits.js';
export { MAX_BODY_DEPTH } from './serve/request-body.js';
