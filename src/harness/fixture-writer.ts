/**
 * Turns a recorded live session (REPL) into a fixture that `switchboard test` passes: the model's
 * answers become scripted steps, the HTTP exchanges (and command runs) that happened become
 * declared exchanges (and runs) with their real responses, and what was observed becomes the expectations.
 */
import { CREDENTIAL_HEADERS } from '../handlers/endpoint/service-config.js';
import type { ServiceAuth, ServiceConfig, SessionEvent } from '../session/types.js';
import { stringify } from 'yaml';
import type { FixtureAction, ModelStep } from './fixture-schema.js';
import type { ObservedTurn } from './observe.js';
import type { RecordedExchange } from './recording-dispatcher.js';
import { commandsSection, type RecordedRun } from './recording-runner.js';
import { formObject } from './recorded-request.js';

/** One recorded turn. */
export interface RecordedTurn {
  readonly user: string;
  readonly steps: readonly ModelStep[];
  readonly observed: ObservedTurn;
  /** Vars and language changed before this turn (REPL `/set`, `/lang` after the first turn). */
  readonly before?: { vars?: Record<string, unknown>; language?: string };
  /** Utterances the person acknowledged during the turn (REPL `/spoken`), as `spoken` points. */
  readonly spoken?: readonly string[];
}

/** Options of {@link buildFixture}. */
export interface BuildFixtureOptions {
  readonly name: string;
  /** The tools file, relative to where the fixture will be written. */
  readonly tools: string;
  readonly session: {
    readonly id: string;
    readonly now: string;
    readonly language: string;
    readonly languages?: readonly string[];
    readonly vars: Readonly<Record<string, unknown>>;
    readonly systemValues?: {
      readonly source?: string;
      readonly target?: string;
      readonly timezone?: string;
    };
    /** Services used; written with every secret replaced (see {@link redactServices}). */
    readonly services?: Readonly<Record<string, ServiceConfig>>;
    readonly speechAck?: 'host' | 'auto';
  };
  readonly turns: readonly RecordedTurn[];
  readonly exchanges: readonly RecordedExchange[];
  /** Command runs that happened (written as the command double's `commands:`). Default none. */
  readonly commandRuns?: readonly RecordedRun[];
  /**
   * Tools whose pre-tool phrase is spoken only once a call is slow (`speech.before.mode:
   * if_slow`): like bridge phrases, their `say` depends on timing a replay does not reproduce.
   */
  readonly slowPhraseTools?: readonly string[];
  /** Action tools the recorder simulated (each written as a canned `actions:` entry). */
  readonly simulatedActions?: readonly string[];
  /** Action tools whose canned answer was declared (the REPL's `--actions`), written as given. */
  readonly declaredActions?: ReadonlyMap<string, FixtureAction>;
}

function exchangeOf(x: RecordedExchange): Record<string, unknown> | undefined {
  if (x.response === undefined) {
    return {
      request: { method: x.request.method, url: x.request.url },
      response: { error: 'network' },
    };
  }
  const type = x.response.headers['content-type'];
  const response: Record<string, unknown> = { status: x.response.status };
  let json: unknown;
  let isJson = false;
  if (type !== undefined && /\bjson\b/i.test(type) && !x.response.truncated) {
    try {
      json = JSON.parse(x.response.body);
      isJson = true;
    } catch {
      isJson = false;
    }
  }
  if (isJson) response['json'] = json;
  else if (x.response.body !== '') {
    response['body'] = x.response.body;
    if (type !== undefined) response['headers'] = { 'content-type': type };
  }
  const retryAfter = x.response.headers['retry-after'];
  if (retryAfter !== undefined)
    response['headers'] = { ...((response['headers'] as object) ?? {}), 'retry-after': retryAfter };
  return { request: { method: x.request.method, url: x.request.url }, response };
}

function requestExpectation(x: ObservedTurn['requests'][number]): Record<string, unknown> {
  const out: Record<string, unknown> = { method: x.method, url: x.url };
  if (x.body === undefined) return out;
  const type = x.headers['content-type'] ?? '';
  if (/json/i.test(type)) {
    try {
      out['json'] = JSON.parse(x.body);
      return out;
    } catch {
      // falls through to the raw body
    }
  }
  if (/x-www-form-urlencoded/i.test(type)) out['form'] = formObject(x.body);
  else out['body'] = x.body;
  return out;
}

function changedVars(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (!Object.hasOwn(before, key) || JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      Object.defineProperty(out, key, {
        value: after[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return out;
}

/** Builds the fixture value (plain data, ready for YAML). */
export function buildFixture(options: BuildFixtureOptions): Record<string, unknown> {
  let vars: Readonly<Record<string, unknown>> = options.session.vars;
  const slowPhrases = new Set(options.slowPhraseTools ?? []);
  // Bridge phrases and `if_slow` pre-tool phrases depend on timing a replay does not reproduce
  // (the HTTP double answers at once).
  const timed = (e: Extract<SessionEvent, { type: 'say' }>): boolean =>
    e.source === 'bridge' ||
    (e.source === 'pre-tool' && e.tool !== undefined && slowPhrases.has(e.tool));
  const turns = options.turns.map((t) => {
    const o = t.observed;
    const expect: Record<string, unknown> = {
      tool_calls: o.toolCalls.map((c) => ({
        name: c.name,
        ...(c.args !== undefined ? { args: c.args } : {}),
      })),
      requests: o.requests.map(requestExpectation),
      ...((o.commands ?? []).length > 0
        ? { commands: (o.commands ?? []).map((c) => ({ command: c.command, argv: [...c.argv] })) }
        : {}),
      say: o.events.flatMap((e) => (e.type === 'say' && !timed(e) ? [e.text] : [])),
      language: o.language,
    };
    const changed = changedVars({ ...vars, ...(t.before?.vars ?? {}) }, o.vars);
    if (Object.keys(changed).length > 0) expect['vars'] = changed;
    if (Object.keys(o.workflows).length > 0) expect['workflows'] = o.workflows;
    if (o.toolErrors.length > 0)
      expect['tool_errors'] = o.toolErrors.map((e) => ({ tool: e.tool, code: e.code }));
    if (o.modelError !== undefined) expect['model_error'] = o.modelError;
    else expect['reply'] = o.reply;
    // A turn that ended the session (a hangup) says so: a replay that no longer ends it fails.
    if (o.ended) expect['ended'] = true;
    vars = o.vars;
    return {
      ...(t.before !== undefined ? { before: t.before } : {}),
      user: t.user,
      model: t.steps,
      ...(t.spoken !== undefined && t.spoken.length > 0 ? { spoken: t.spoken } : {}),
      expect,
    };
  });
  const s = options.session;
  return {
    name: options.name,
    tools: options.tools,
    session: {
      id: s.id,
      now: s.now,
      language: s.language,
      ...(s.languages !== undefined ? { languages: s.languages } : {}),
      ...(s.speechAck === 'host' ? { speech_ack: 'host' } : {}),
      ...(Object.keys(s.vars).length > 0 ? { vars: s.vars } : {}),
      ...(s.systemValues !== undefined && Object.keys(s.systemValues).length > 0
        ? { system_values: { ...s.systemValues } }
        : {}),
      ...(s.services !== undefined && Object.keys(s.services).length > 0
        ? { services: redactServices(s.services) }
        : {}),
    },
    ...(options.simulatedActions !== undefined && options.simulatedActions.length > 0
      ? {
          actions: Object.fromEntries(
            options.simulatedActions.map((name) => [
              name,
              options.declaredActions?.get(name) ?? {},
            ]),
          ),
        }
      : {}),
    http: options.exchanges.map(exchangeOf).filter((x) => x !== undefined),
    ...((options.commandRuns ?? []).length > 0
      ? { commands: commandsSection(options.commandRuns ?? []) }
      : {}),
    turns,
  };
}

const REDACTED = 'redacted';

/**
 * An auth with every secret replaced by "redacted", keeping its kind and the names of its
 * headers, so a saved fixture can still assert where the credential goes (`x-api-key`, not
 * `authorization`). OAuth2 becomes a bearer token: a replay never asks a token server, and the
 * calls carry a bearer token as OAuth2's would.
 */
function redactedAuth(auth: ServiceAuth): ServiceAuth {
  switch (auth.type) {
    case 'basic':
      return { type: 'basic', username: REDACTED, password: REDACTED };
    case 'custom_headers':
      return {
        type: 'custom_headers',
        headers: Object.fromEntries(Object.keys(auth.headers).map((h) => [h, REDACTED])),
      };
    default:
      return { type: 'bearer', token: REDACTED };
  }
}

/**
 * Services as a saved fixture may hold them: no secret is ever written. Auth keeps its kind with
 * "redacted" values; plain headers are kept, except a credential header (`x-api-key`,
 * `authorization`, …), which is a secret wherever it is configured.
 */
export function redactServices(
  services: Readonly<Record<string, ServiceConfig>>,
): Record<string, ServiceConfig> {
  // Object.fromEntries defines own properties: a service named "__proto__" stays data.
  return Object.fromEntries(
    Object.entries(services).map(([name, config]): [string, ServiceConfig] => [
      name,
      {
        ...(config.auth !== undefined ? { auth: redactedAuth(config.auth) } : {}),
        ...(config.headers !== undefined
          ? {
              headers: Object.fromEntries(
                Object.entries(config.headers).map(([h, value]) => [
                  h,
                  CREDENTIAL_HEADERS.has(h.toLowerCase()) ? REDACTED : value,
                ]),
              ),
            }
          : {}),
        ...(config.origins !== undefined ? { origins: [...config.origins] } : {}),
      },
    ]),
  );
}

/** Renders a fixture value as YAML with a header comment. */
export function fixtureToYaml(
  fixture: Record<string, unknown>,
  header = 'Recorded by `switchboard repl`.',
): string {
  return `# ${header}\n${stringify(fixture, { lineWidth: 0 })}`;
}
