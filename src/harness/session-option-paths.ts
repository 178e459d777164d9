/**
 * A fixture's session options refused by `createSession` (an unknown language, `tool_defaults`
 * for no tool, an action for no tool…) are the fixture author's mistake, so they are reported as
 * an unusable fixture, at the place in the fixture where they were written (`session.language`,
 * `session.tool_defaults.book`, `actions.hangpu`) rather than by the session option's name.
 */
import type { DefinitionIssue } from '../errors.js';

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
