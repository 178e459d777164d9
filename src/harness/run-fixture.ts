/**
 * Runs one fixture: a real session over the fixture's tools, a per-turn scripted model, the HTTP
 * double answering declared exchanges and the command double declared runs. Checks every turn's
 * expectations and the fixture's global rules (no unused step, no extra model call, no undeclared
 * or unused exchange). About 400 lines: the play loop and its result shapes read as one story.
 */
import { NO_TIMINGS } from '../observability/turn-tracing.js';
import { NO_USAGE } from '../models/types.js';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { checkRunFixtureOptions } from './check-run-options.js';
import type { Session, SessionEvent, SessionOptions, TurnResult } from '../session/types.js';
import { checkTurn } from './check-turn.js';
import { fixtureActions } from './fixture-actions.js';
import type { FixtureFailure, FixtureResult } from './fixture-result.js';
import type { FixtureSession, FixtureTurn, HttpExchange } from './fixture-schema.js';
import type { RecordedRequest } from './recorded-request.js';
import { createHttpDouble, type HttpDouble } from './http-double.js';
import { createCommandDouble, type CommandDouble } from './command-double.js';
import { undeclaredCommands, unusedCommandFailures } from './command-failures.js';
import {
  openFixtureTransport,
  type FixtureTransport,
  type FixtureTransportName,
} from './fixture-transport.js';
import { loadFixture, type LoadedFixture } from './load-fixture.js';
import { observeTurn, tracesOfEvents, type ObservedTurn } from './observe.js';
import { TurnModel } from './turn-model.js';
import { speechPoints } from './speech-points.js';
import { fixtureIssuesOf, fixtureSessionWarnings } from './session-option-paths.js';

/** Live notifications while a fixture runs (used by `simulate`). */
export interface FixtureObserver {
  fixtureStart?(loaded: LoadedFixture): void;
  turnStart?(turn: number, user: string): void;
  event?(turn: number, event: SessionEvent): void;
  /** A request reached the HTTP double; `response` is the declared answer (absent: undeclared). */
  request?(request: RecordedRequest, response: HttpExchange['response'] | undefined): void;
  turnEnd?(turn: number, observed: ObservedTurn, failures: readonly FixtureFailure[]): void;
}

/** Options of {@link runFixture}. */
export interface RunFixtureOptions {
  /** Name used in messages for an inline fixture. Default the path, or `<inline>`. */
  readonly file?: string;
  /** Base directory of relative tool paths of inline fixtures. Default `process.cwd()`. */
  readonly dir?: string;
  readonly observer?: FixtureObserver;
  /** `realtime`: run the fixture through the Realtime transport (a loopback server). Default `text`. */
  readonly transport?: FixtureTransportName;
}

/**
 * Runs a fixture file (or an already-parsed fixture value). Never throws for a bad fixture:
 * load problems come back as status `error` with their issues.
 */
export async function runFixture(
  source: string | unknown,
  options: RunFixtureOptions = {},
): Promise<FixtureResult> {
  checkRunFixtureOptions(options);
  const started = performance.now();
  const file = options.file ?? (typeof source === 'string' ? source : '<inline>');
  let loaded: LoadedFixture;
  try {
    loaded = await loadFixture(source, {
      file,
      ...(options.dir !== undefined ? { dir: options.dir } : {}),
    });
  } catch (error) {
    const issues =
      error instanceof DefinitionError
        ? error.issues
        : [
            {
              code: 'unreadable',
              severity: 'error' as const,
              path: '',
              message: String(error),
              file,
            },
          ];
    return {
      file,
      name: file,
      status: 'error',
      durationMs: performance.now() - started,
      failures: [],
      issues,
      turns: [],
    };
  }
  options.observer?.fixtureStart?.(loaded);
  const played = await play(loaded, options.observer, options.transport ?? 'text');
  const { failures, turns, unusable } = played;
  if (unusable !== undefined)
    return {
      file,
      name: loaded.fixture.name,
      status: 'error',
      durationMs: performance.now() - started,
      failures: [],
      issues: [...loaded.tools.warnings, ...unusable],
      turns: [],
    };
  return {
    file,
    name: loaded.fixture.name,
    status: failures.length === 0 ? 'passed' : 'failed',
    durationMs: performance.now() - started,
    failures,
    issues: [...loaded.tools.warnings, ...(played.warnings ?? [])],
    turns,
  };
}

/** Builds the session options a fixture describes. */
export function sessionOptionsOf(
  loaded: LoadedFixture,
  model: SessionOptions['model'],
  http: HttpDouble,
  commands?: CommandDouble,
): SessionOptions {
  const s = loaded.fixture.session;
  const startAt = s.now === undefined ? undefined : Date.parse(s.now);
  const realStart = Date.now();
  let ids = 0;
  return {
    tools: loaded.tools,
    model,
    dispatcher: http.dispatcher,
    ...(commands === undefined
      ? {}
      : { commands: commands.commands, commandRunner: commands.runner }),
    actions: fixtureActions(loaded.fixture.actions),
    id: s.id ?? 'fixture',
    ...(s.language !== undefined ? { language: s.language } : {}),
    ...(s.languages !== undefined ? { languages: s.languages } : {}),
    ...(s.vars !== undefined ? { vars: s.vars } : {}),
    ...(s.prompt !== undefined ? { prompt: s.prompt } : {}),
    ...(s.agents !== undefined ? { agents: agentsOf(s.agents) } : {}),
    ...(s.agent !== undefined ? { agent: s.agent } : {}),
    ...(s.tool_defaults !== undefined ? { toolDefaults: s.tool_defaults } : {}),
    ...(s.services !== undefined ? { services: s.services as SessionOptions['services'] } : {}),
    ...(s.max_tool_rounds !== undefined ? { maxToolRounds: s.max_tool_rounds } : {}),
    ...(s.speech_ack !== undefined ? { speechAck: s.speech_ack } : {}),
    ...(s.system_values !== undefined ? { systemValues: s.system_values } : {}),
    ...(s.on_missing_template_value !== undefined
      ? { onMissingTemplateValue: s.on_missing_template_value }
      : {}),
    ...(s.bridge !== undefined
      ? {
          bridge: {
            ...(s.bridge.threshold_secs !== undefined
              ? { thresholdSecs: s.bridge.threshold_secs }
              : {}),
            ...(s.bridge.phrases !== undefined ? { phrases: s.bridge.phrases } : {}),
          },
        }
      : {}),
    _internal: {
      // A shifted clock: reproducible dates, real elapsed time (deadlines still work).
      ...(startAt !== undefined ? { now: () => startAt + (Date.now() - realStart) } : {}),
      generateId: () => `id_${++ids}`,
      // Retries are not waited out: the attempts, their order and records are a real run's, and a
      // fixture whose API answers 503 (or a request it did not declare) takes no backoff time.
      sleep: skipWait,
    },
  };
}

/** A retry's wait, skipped (resolves at once; the handler still checks that the wait fits its deadline). */
const skipWait = (): Promise<void> => Promise.resolve();

async function play(
  loaded: LoadedFixture,
  observer: FixtureObserver | undefined,
  transportName: FixtureTransportName,
): Promise<{
  failures: FixtureFailure[];
  turns: ObservedTurn[];
  /** Session options the session refused: the fixture is unusable, not failed. */
  unusable?: DefinitionIssue[];
  /** What the session warned of, for the report. */
  warnings?: DefinitionIssue[];
}> {
  const failures: FixtureFailure[] = [];
  const turns: ObservedTurn[] = [];
  const http = createHttpDouble({
    exchanges: loaded.fixture.http,
    ...(observer?.request !== undefined ? { onRequest: observer.request.bind(observer) } : {}),
  });
  const commands = createCommandDouble({
    commands: new Map(Object.entries(loaded.fixture.commands)),
  });
  const model = new TurnModel();
  let session: Session | undefined;
  let transport: FixtureTransport | undefined;
  const warned = fixtureSessionWarnings(loaded);
  try {
    const options = { ...sessionOptionsOf(loaded, model, http, commands), onWarning: warned.add };
    transport = await openFixtureTransport(transportName, model);
    try {
      session = transport.open(options);
    } catch (error) {
      if (!(error instanceof DefinitionError)) throw error;
      return { failures, turns, unusable: fixtureIssuesOf(error.issues, loaded.file) };
    }
    if (warned.unusable.length > 0) return { failures, turns, unusable: warned.unusable };
    for (const [t, turn] of loaded.fixture.turns.entries()) {
      if (turn.before !== undefined)
        session = await transport.change(session, turn.before, options);
      const before = http.requests.length;
      const runsBefore = commands.runs.length;
      const turnFailures: FixtureFailure[] = [];
      model.begin(t, turn.model);
      observer?.turnStart?.(t, turn.user);
      const played = await runTurn(session, turn, (event) => observer?.event?.(t, event));
      if (played.result === undefined && model.overCalls === 0 && played.modelError === undefined) {
        failures.push({
          kind: 'session_error',
          turn: t,
          message: `the session threw: ${played.error}`,
        });
        break;
      }
      const result = played.result ?? partialResult(played.events, session);
      const requests = http.requests.slice(before);
      const observed = observeTurn({
        user: turn.user,
        result,
        requests,
        commands: commands.runs.slice(runsBefore),
        ...(played.modelError !== undefined && model.overCalls === 0
          ? { modelError: played.modelError }
          : {}),
      });
      turns.push(observed);
      turnFailures.push(...scriptFailures(t, model));
      for (const text of played.unmatchedSpeech) {
        turnFailures.push({
          kind: 'unmatched_speech_point',
          turn: t,
          message: `no utterance contains ${JSON.stringify(text)} (spoken / interrupt_after)`,
        });
      }
      const undeclared = new Map<string, number>();
      for (const r of requests) {
        if (r.exchange === undefined)
          undeclared.set(`${r.method} ${r.url}`, (undeclared.get(`${r.method} ${r.url}`) ?? 0) + 1);
      }
      for (const [what, times] of undeclared) {
        turnFailures.push({
          kind: 'undeclared_request',
          turn: t,
          message: `undeclared request ${what}${times > 1 ? ` (${times} attempts)` : ''} (declare it under http:)`,
        });
      }
      turnFailures.push(...undeclaredCommands(observed.commands ?? [], t));
      if (observed.modelError !== undefined && turn.expect?.model_error === undefined) {
        turnFailures.push({
          kind: 'model_error',
          turn: t,
          message: `the model call failed: ${observed.modelError}`,
        });
      }
      if (turn.expect !== undefined) {
        const mismatches = checkTurn({ expect: turn.expect, observed, path: `turns[${t}].expect` });
        if (mismatches.length > 0) {
          turnFailures.push({
            kind: 'expectation',
            turn: t,
            message: `${mismatches.length} expectation(s) not met`,
            mismatches,
          });
        }
      }
      failures.push(...turnFailures);
      observer?.turnEnd?.(t, observed, turnFailures);
    }
    failures.push(...unusedCommandFailures(commands));
    for (const u of http.unusedExchanges()) {
      failures.push({
        kind: 'unused_exchange',
        message: `declared exchange http[${u.index}] ${u.method} ${u.url} was never requested${u.remaining > 1 ? ` (${u.remaining} uses left)` : ''}`,
      });
    }
  } catch (error) {
    failures.push({
      kind: 'session_error',
      message: `the session could not start: ${errorText(error)}`,
    });
  } finally {
    await session?.close().catch(() => undefined);
    await transport?.close().catch(() => undefined);
    await http.close().catch(() => undefined);
  }
  return { failures, turns, warnings: warned.report };
}

function scriptFailures(t: number, model: TurnModel): FixtureFailure[] {
  const out: FixtureFailure[] = [];
  if (model.overCalls > 0) {
    out.push({
      kind: 'model_overcalled',
      turn: t,
      message: `the model was called ${model.calls} time(s) but turn ${t + 1} scripts ${model.calls - model.overCalls} step(s)`,
    });
  }
  if (model.remaining > 0) {
    out.push({
      kind: 'unused_steps',
      turn: t,
      message: `${model.remaining} scripted model step(s) of turn ${t + 1} never used`,
    });
  }
  return out;
}

interface PlayedTurn {
  readonly events: SessionEvent[];
  readonly result?: TurnResult;
  /** Set when the turn ended on a model failure. */
  readonly modelError?: string;
  /** Set when the turn failed otherwise. */
  readonly error?: string;
  /** Texts of `spoken` / `interrupt_after` points no utterance of the turn contained. */
  readonly unmatchedSpeech: readonly string[];
}

async function runTurn(
  session: Session,
  turn: FixtureTurn,
  onEvent: (e: SessionEvent) => void,
): Promise<PlayedTurn> {
  const events: SessionEvent[] = [];
  const interrupt = turn.interrupt;
  let timer: NodeJS.Timeout | undefined;
  const timers: NodeJS.Timeout[] = [];
  let modelError: string | undefined;
  const points = speechPoints(session, turn, timers);
  try {
    const stream = session.send(turn.user);
    if (interrupt?.after_ms !== undefined)
      timer = setTimeout(() => session.interrupt(), interrupt.after_ms);
    let interrupted = false;
    for await (const event of stream) {
      events.push(event);
      onEvent(event);
      points.onEvent(event);
      if (event.type === 'model-error') modelError = event.message;
      if (!interrupted && interrupt?.on !== undefined && event.type === interrupt.on) {
        interrupted = true;
        session.interrupt();
      }
    }
    return { events, result: await stream.result, unmatchedSpeech: points.unmatched() };
  } catch (error) {
    return {
      events,
      unmatchedSpeech: points.unmatched(),
      ...(modelError !== undefined ? { modelError } : { error: errorText(error) }),
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    for (const t of timers) clearTimeout(t);
  }
}

/** What a turn that rejected still shows: its events, the calls they record, the session's state. */
function partialResult(events: readonly SessionEvent[], session: Session): TurnResult {
  return {
    content: '',
    response_time_secs: 0,
    traces: tracesOfEvents(events),
    propagated: [],
    timings: NO_TIMINGS,
    events,
    usage: NO_USAGE,
    state: session.toJSON(),
    interrupted: events.some((e) => e.type === 'interrupted'),
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Fixture agents (snake_case `tool_defaults`) as session agents. */
function agentsOf(
  agents: NonNullable<FixtureSession['agents']>,
): NonNullable<SessionOptions['agents']> {
  return Object.fromEntries(
    Object.entries(agents).map(([name, a]) => [
      name,
      {
        prompt: a.prompt,
        ...(a.tools !== undefined ? { tools: a.tools } : {}),
        ...(a.tool_defaults !== undefined ? { toolDefaults: a.tool_defaults } : {}),
      },
    ]),
  );
}
