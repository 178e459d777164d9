/**
 * A fixture's session options refused by `createSession` (an unknown language, `tool_defaults`
 * for no tool, an action for no tool…) are the fixture author's mistake, so they are reported as
 * an unusable fixture, at the place in the fixture where they were written (`session.language`,
 * `session.tool_defaults.book`, `actions.hangpu`) rather than by the session option's name.
 */
import type { DefinitionIssue } from '../errors.js';
import type { LoadedFixture } from './load-fixture.js';

/** Session option → where a fixture writes it. Options not listed keep their path. */
const FIXTURE_PLACES: ReadonlyMap<string, string> = new Map([
  ['id', 'session.id'],
  ['language', 'session.language'],
  ['languages', 'session.languages'],
  ['vars', 'session.vars'],
  ['prompt', 'session.prompt'],
  ['agents', 'session.agents'],
  ['agent', 'session.agent'],
  ['toolDefaults', 'session.tool_defaults'],
  ['services', 'session.services'],
  ['maxToolRounds', 'session.max_tool_rounds'],
  ['speechAck', 'session.speech_ack'],
  ['systemValues', 'session.system_values'],
  ['onMissingTemplateValue', 'session.on_missing_template_value'],
  ['bridge', 'session.bridge'],
  ['actions', 'actions'],
  ['commands', 'commands'],
]);

/** The first segment of a session option path: `toolDefaults` of `toolDefaults.book.city`. */
const FIRST = /^[A-Za-z_$][\w$]*/;

/** Renames one session option path to the fixture's spelling. */
export function fixturePathOf(path: string): string {
  const first = FIRST.exec(path)?.[0];
  const place = first === undefined ? undefined : FIXTURE_PLACES.get(first);
  if (place === undefined || first === undefined) return path;
  // `agents.<name>.toolDefaults` is `session.agents.<name>.tool_defaults` in a fixture.
  const rest = path.slice(first.length).replace(/\.toolDefaults(?=$|[.[])/, '.tool_defaults');
  return place + rest;
}

/** The issues with fixture paths and the fixture's file. */
export function fixtureIssuesOf(
  issues: readonly DefinitionIssue[],
  file: string,
): DefinitionIssue[] {
  return issues.map((issue) => ({
    ...issue,
    path: fixturePathOf(issue.path),
    file,
    ...(issue.code === 'command_not_registered'
      ? {
          message: `${issue.message} (a fixture registers a command by declaring its runs under commands:)`,
        }
      : {}),
  }));
}

/** What createSession warned of for one fixture, split by what it means for the run. */
export interface FixtureSessionWarnings {
  /** The session's `onWarning`. */
  readonly add: (warning: DefinitionIssue) => void;
  /** Host configuration mistakes the fixture's own calls would meet: it is unusable (exit 2). */
  readonly unusable: DefinitionIssue[];
  /** The other warnings, for the fixture's report (never a process warning a CI log scrolls past). */
  readonly report: DefinitionIssue[];
}

/**
 * A tool naming a service `session.services` does not configure fails every call with
 * `not_available`. When the fixture's script calls such a tool, the run would pass or fail for a
 * reason nobody wrote: the fixture is unusable, at `session.services.<name>`. When it never does
 * (a shared tools file, a fixture about one flow), it is a warning in the report.
 */
export function fixtureSessionWarnings(loaded: LoadedFixture): FixtureSessionWarnings {
  const services = new Map<string, string>();
  for (const t of loaded.tools.tools.values()) if (t.service) services.set(t.name, t.service);
  const called = new Set<string>();
  for (const turn of loaded.fixture.turns)
    for (const step of turn.model) for (const c of step.tool_calls ?? []) called.add(c.name);
  const unusable: DefinitionIssue[] = [];
  const report: DefinitionIssue[] = [];
  const add = (warning: DefinitionIssue): void => {
    const [issue] = fixtureIssuesOf([warning], loaded.file) as [DefinitionIssue];
    const service = warning.path.slice('services.'.length);
    const calls = [...called].filter((t) => services.get(t) === service);
    if (warning.code !== 'service_not_configured' || calls.length === 0) {
      // A turn's `before` makes a new session, which warns again.
      if (!report.some((r) => r.code === issue.code && r.path === issue.path)) report.push(issue);
      return;
    }
    unusable.push({
      ...issue,
      severity: 'error',
      message: issue.message.replace(
        /; their calls fail with not_available$/,
        `, and the fixture calls ${calls.join(', ')}: add it under session.services (${JSON.stringify(service)}: {} when it needs no credentials); every call would fail with not_available`,
      ),
    });
  };
  return { add, unusable, report };
}
