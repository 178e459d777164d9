/**
 * What the REPL's `/save` and the studio's "save as fixture" write: each turn of a live session
 * recorded as it ends (the model's steps, the HTTP exchanges, what was observed), and the fixture
 * built from them. Shared by both so a saved fixture means the same thing whichever made it.
 */
import { writeFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { ToolSet } from '../definition/types.js';
import type { FixtureAction } from './fixture-schema.js';
import { buildFixture, fixtureToYaml, type RecordedTurn } from './fixture-writer.js';
import { observeTurn } from './observe.js';
import type { RecordedExchange } from './recording-dispatcher.js';
import type { RecordedRun } from './recording-runner.js';
import type { ModelStep } from './fixture-schema.js';
import { NO_USAGE } from '../models/types.js';
import { NO_TIMINGS } from '../observability/turn-tracing.js';
import type { ServiceConfig, SessionState, TurnResult } from '../session/types.js';

/** One turn as it ended. */
export interface EndedTurn {
  readonly user: string;
  readonly steps: readonly ModelStep[];
  readonly exchanges: readonly RecordedExchange[];
  /** Command runs of the turn. */
  readonly runs: readonly RecordedRun[];
  readonly result: TurnResult | undefined;
  readonly modelError: string | undefined;
  /** The session's state, for a turn that ended without a result. */
  readonly state: SessionState;
  /** Utterances acknowledged during the turn (`--speech-ack host`). */
  readonly spoken: readonly string[];
  /** `/set` and `/lang` made since the previous turn. */
  readonly before: { vars?: Record<string, unknown>; language?: string } | undefined;
}

/** The recorded form of an ended turn. */
export function recordTurn(turn: EndedTurn): RecordedTurn {
  const requests = turn.exchanges.map((x) => ({ ...x.request, status: x.response?.status }));
  const observed = observeTurn({
    user: turn.user,
    result: turn.result ?? {
      content: '',
      response_time_secs: 0,
      traces: [],
      propagated: [],
      timings: NO_TIMINGS,
      events: [],
      usage: NO_USAGE,
      state: turn.state,
      interrupted: false,
    },
    requests,
    commands: turn.runs.map((r) => ({ command: r.command, argv: r.argv })),
    ...(turn.modelError !== undefined ? { modelError: turn.modelError } : {}),
  });
  return {
    user: turn.user,
    // The failed call's step says what the session reported (scrubbed of every secret it knows),
    // so the replay's error equals the saved `expect.model_error`.
    steps: turn.steps.map((s) =>
      s.error !== undefined && turn.modelError !== undefined ? { ...s, error: turn.modelError } : s,
    ),
    observed,
    ...(turn.before !== undefined ? { before: turn.before } : {}),
    ...(turn.spoken.length > 0 ? { spoken: [...turn.spoken] } : {}),
  };
}

/** Options of {@link saveFixture}. */
export interface SaveFixtureOptions {
  readonly file: string;
  /** What recorded it, named in the file's header comment and the default name. Default `repl`. */
  readonly recordedBy?: 'repl' | 'studio';
  /** The fixture's `name`. Default `<recordedBy> session <startedAt>`. */
  readonly name?: string;
  readonly tools: ToolSet;
  /** Absolute path of the tools file; written relative to the fixture. */
  readonly toolsFile: string;
  readonly sessionId: string;
  readonly startedAt: Date;
  readonly language: string;
  readonly languages: readonly string[] | undefined;
  readonly vars: Readonly<Record<string, unknown>>;
  /** The host's system values the session ran with; written so the fixture replays the same. */
  readonly systemValues?: {
    readonly source?: string;
    readonly target?: string;
    readonly timezone?: string;
  };
  readonly services: Readonly<Record<string, ServiceConfig>> | undefined;
  readonly speechAck: 'host' | 'auto' | undefined;
  readonly actions: ReadonlyMap<string, FixtureAction> | undefined;
  readonly turns: readonly RecordedTurn[];
  readonly exchanges: readonly RecordedExchange[];
  readonly commandRuns: readonly RecordedRun[];
}

/** Whether the fixture was written, and the lines to show (saved, or why not). */
export interface SavedFixture {
  readonly ok: boolean;
  readonly lines: readonly string[];
}

/** Writes the fixture; never throws for a file that cannot be written. */
export async function saveFixture(o: SaveFixtureOptions): Promise<SavedFixture> {
  const path = resolve(o.file);
  const by = o.recordedBy ?? 'repl';
  const fixture = buildFixture({
    name: o.name ?? `${by} session ${o.startedAt.toISOString()}`,
    tools: relative(dirname(path), o.toolsFile) || o.toolsFile,
    session: {
      id: o.sessionId,
      now: o.startedAt.toISOString(),
      language: o.language,
      ...(o.languages !== undefined ? { languages: o.languages } : {}),
      vars: o.vars,
      ...(o.systemValues !== undefined ? { systemValues: o.systemValues } : {}),
      ...(o.services !== undefined ? { services: o.services } : {}),
      ...(o.speechAck !== undefined ? { speechAck: o.speechAck } : {}),
    },
    turns: o.turns,
    exchanges: o.exchanges,
    commandRuns: o.commandRuns,
    slowPhraseTools: [...o.tools.tools.values()]
      .filter((t) => t.options.speech.before?.mode === 'if_slow')
      .map((t) => t.name),
    simulatedActions: [...o.tools.tools.values()]
      .filter((t) => t.type === 'action')
      .map((t) => t.name),
    ...(o.actions !== undefined ? { declaredActions: o.actions } : {}),
  });
  try {
    await writeFile(path, fixtureToYaml(fixture, `Recorded by \`switchboard ${by}\`.`), 'utf8');
  } catch (error) {
    return { ok: false, lines: [`could not save: ${(error as Error).message}`] };
  }
  const lines = [`(saved ${o.turns.length} turn(s) to ${o.file})`];
  const cut = o.turns.flatMap((t, i) => (t.observed.interrupted ? [i + 1] : []));
  if (cut.length > 0)
    lines.push(
      `(note: turn(s) ${cut.join(', ')} were interrupted; a fixture replays them without the barge-in, so check their expectations)`,
    );
  return { ok: true, lines };
}
