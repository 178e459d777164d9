/**
 * Fixtures in the studio: run a folder (or one file) with each fixture's failures and the
 * expected-against-actual of every mismatch, drawn on the same timeline as a live turn; and a
 * saved session (`toJSON`) drawn from its history, which has no clock.
 */
import { SecretSet } from '../handlers/endpoint/secret-set.js';
import type { FixtureResult } from '../harness/fixture-result.js';
import { responseBody } from '../harness/http-double.js';
import { discoverFixtures } from '../harness/run-fixtures.js';
import { runFixture } from '../harness/run-fixture.js';
import type { ChatMessage } from '../models/types.js';
import type { ServiceConfig } from '../session/types.js';
import type { FixtureRunView, TimelineItem, TimelineTurn } from './protocol.js';
import { buildTimelineTurn, tenths, type ExchangeDetail, type TimedEvent } from './timeline.js';
import { issueView } from './tool-view.js';

/** The fixture files under a folder, in the order `switchboard test` runs them. */
export async function listFixtures(dir: string): Promise<string[]> {
  return [...(await discoverFixtures({ paths: [dir] })).files];
}

/** Options of {@link runFixtureForStudio}. */
export interface RunFixtureForStudioOptions {
  readonly file: string;
  /** Monotonic ms clock. Default `performance.now`. */
  readonly clock?: () => number;
}

/** Runs one fixture and draws each of its turns. */
export async function runFixtureForStudio(o: RunFixtureForStudioOptions): Promise<FixtureRunView> {
  const clock = o.clock ?? (() => performance.now());
  const secrets = new SecretSet();
  const turns: { user: string; start: number; events: TimedEvent[]; http: ExchangeDetail[] }[] = [];
  // A fixture that acknowledges playback itself (`speech_ack: host`) is drawn with its marks.
  let speechAck: 'host' | 'auto' | undefined;
  const result = await runFixture(o.file, {
    observer: {
      fixtureStart: (loaded) => {
        speechAck = loaded.fixture.session.speech_ack;
        secrets.addServices(
          (loaded.fixture.session.services ?? {}) as Readonly<Record<string, ServiceConfig>>,
        );
      },
      turnStart: (_t, user) => turns.push({ user, start: clock(), events: [], http: [] }),
      event: (_t, event) => {
        const turn = turns.at(-1);
        turn?.events.push({ atMs: tenths(clock() - turn.start), event });
      },
      request: (request, response) => {
        const scrub = (text: string): string => secrets.scrubText(text);
        const answer = response !== undefined ? responseBody(response) : undefined;
        turns.at(-1)?.http.push({
          request: {
            method: request.method,
            url: scrub(request.url),
            headers: Object.fromEntries(
              Object.entries(request.headers).map(([k, v]) => [k, scrub(v)] as const),
            ),
            ...(request.body !== undefined ? { body: scrub(request.body) } : {}),
          },
          ...(answer !== undefined && response?.error === undefined
            ? {
                response: {
                  status: response?.status ?? 200,
                  headers: answer.headers,
                  body: answer.body,
                },
              }
            : {
                error:
                  response === undefined
                    ? 'no response is declared for this request'
                    : 'connection reset',
              }),
        });
      },
    },
  });
  return fixtureView(
    result,
    turns.map((t, i) =>
      buildTimelineTurn({
        index: i,
        user: t.user,
        running: false,
        events: t.events,
        exchanges: t.http,
        ...(result.turns[i] !== undefined ? { timings: result.turns[i].timings } : {}),
        ...(speechAck !== undefined ? { speechAck } : {}),
      }),
    ),
  );
}

function fixtureView(result: FixtureResult, turns: readonly TimelineTurn[]): FixtureRunView {
  return {
    file: result.file,
    name: result.name,
    status: result.status,
    durationMs: Math.round(result.durationMs),
    failures: result.failures.map((f) => ({
      kind: f.kind,
      ...(f.turn !== undefined ? { turn: f.turn } : {}),
      message: f.message,
      mismatches: (f.mismatches ?? []).map((m) => ({
        path: m.path,
        reason: m.reason,
        ...(m.expected !== undefined ? { expected: m.expected } : {}),
        ...(m.actual !== undefined ? { actual: m.actual } : {}),
      })),
    })),
    issues: result.issues.map(issueView),
    turns,
  };
}

/**
 * A saved session's turns (`session.toJSON()`): one per caller message, with the model's calls,
 * their results and its replies, in order. Plain data in, so an unknown shape is refused.
 */
export function sessionTimeline(state: unknown): TimelineTurn[] {
  const history = historyOf(state);
  const turns: { user: string; items: TimelineItem[] }[] = [];
  const names = new Map<string, string>();
  for (const [i, m] of history.entries()) {
    if (m.role === 'system') continue;
    if (m.role === 'user') {
      turns.push({
        user: m.content,
        items: [{ id: 'caller', kind: 'caller', label: m.content, depth: 0, detail: { ...m } }],
      });
      continue;
    }
    const turn = turns.at(-1) ?? (turns.push({ user: '', items: [] }), turns.at(-1)!);
    if (m.role === 'assistant') {
      for (const call of m.tool_calls ?? []) {
        names.set(call.id, call.function.name);
        turn.items.push({
          id: `tool-${call.id}`,
          kind: 'tool',
          label: call.function.name,
          depth: 0,
          detail: {
            callId: call.id,
            tool: call.function.name,
            rawArguments: call.function.arguments,
          },
        });
      }
      if (typeof m.content === 'string' && m.content !== '')
        turn.items.push({
          id: `reply-${i}`,
          kind: 'reply',
          label: m.content,
          depth: 0,
          detail: { text: m.content },
        });
    } else {
      const item = turn.items.find((x) => x.id === `tool-${m.tool_call_id}`);
      const output = parseMaybe(m.content);
      const code = errorCodeOf(output);
      const index = item !== undefined ? turn.items.indexOf(item) : -1;
      if (item !== undefined)
        turn.items[index] = {
          ...item,
          ...(code !== undefined ? { code } : {}),
          detail: { ...item.detail, output },
        };
    }
  }
  return turns.map((t, index) => ({ index, user: t.user, running: false, items: t.items }));
}

function historyOf(state: unknown): readonly ChatMessage[] {
  if (
    state === null ||
    typeof state !== 'object' ||
    !Object.hasOwn(state, 'history') ||
    !Array.isArray((state as { history: unknown }).history)
  )
    throw new Error(
      'not a saved session: expected the JSON of session.toJSON() with a history array',
    );
  const history = (state as { history: unknown[] }).history;
  for (const [i, m] of history.entries()) {
    const role =
      m !== null && typeof m === 'object' && Object.hasOwn(m, 'role')
        ? (m as { role: unknown }).role
        : undefined;
    if (role !== 'system' && role !== 'user' && role !== 'assistant' && role !== 'tool')
      throw new Error(`not a saved session: history[${i}] has no known role`);
  }
  return history as ChatMessage[];
}

function parseMaybe(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A tool error's `code` (the engine's error JSON), if the output is one. */
function errorCodeOf(output: unknown): string | undefined {
  if (output === null || typeof output !== 'object' || !Object.hasOwn(output, 'error'))
    return undefined;
  const error = (output as { error: unknown }).error;
  if (error === null || typeof error !== 'object' || !Object.hasOwn(error, 'code'))
    return undefined;
  const code = (error as { code: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
