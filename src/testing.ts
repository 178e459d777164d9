/**
 * switchboard/testing — test doubles that are part of the product (the scripted model).
 */
export {
  ScriptedModel,
  type ScriptedStep,
  type ScriptedToolCall,
  type ScriptedCall,
  type ScriptedModelOptions,
} from './models/scripted.js';
export {
  startRealtimeLoopback,
  type RealtimeLoopback,
  type RealtimeLoopbackOptions,
} from './realtime/loopback-server.js';
export type { LoopbackItem } from './realtime/realtime-loopback.js';

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
  type CommandExchange,
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
  type ObserveTurnOptions,
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
  createCommandDouble,
  type CommandDouble,
  type CommandDoubleOptions,
  type RecordedCommand,
  type UnusedCommand,
} from './harness/command-double.js';
export {
  createRecordingDispatcher,
  type RecordingDispatcher,
  type RecordingDispatcherOptions,
  type RecordedExchange,
} from './harness/recording-dispatcher.js';
export { RecordingModel } from './harness/recording-model.js';
export {
  createRecordingRunner,
  type RecordedRun,
  type RecordingRunner,
  type RecordingRunnerOptions,
} from './harness/recording-runner.js';
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
export { createNarrator, type NarratorOptions, type SpeechWaitEvent } from './harness/narrator.js';
export { changeSession, type SessionChanges } from './harness/session-changes.js';
export {
  report,
  REPORTERS,
  type ReporterName,
  type ReportOptions,
} from './harness/reporters/index.js';
export { humanReport, type HumanReportOptions } from './harness/reporters/human.js';
export { junitReport, escapeXml, type JunitReportOptions } from './harness/reporters/junit.js';
export { tapReport } from './harness/reporters/tap.js';
export { jsonReport } from './harness/reporters/json.js';
export {
  openFixtureTransport,
  type FixtureTransport,
  type FixtureTransportName,
} from './harness/fixture-transport.js';

export { timingLine } from './harness/narrator.js';
