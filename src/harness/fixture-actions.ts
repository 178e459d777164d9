/**
 * Host action handlers declared by a fixture (`actions: { transfer: { result, handoff, … } }`):
 * canned answers standing in for the host application, so handoff, end of session and handler
 * failures can be tested without code.
 */
import { actionResult } from '../handlers/action-result.js';
import type { ActionHandler } from '../handlers/types.js';
import type { FixtureAction } from './fixture-schema.js';

/** Builds one action handler per declared action (a `Map`: tool names are data). */
export function fixtureActions(
  actions: Readonly<Record<string, FixtureAction>>,
): Map<string, ActionHandler> {
  const out = new Map<string, ActionHandler>();
  for (const [name, spec] of Object.entries(actions)) {
    out.set(name, () => {
      if (spec.error !== undefined) throw new Error(spec.error);
      const endSession = spec.end_session;
      if (
        spec.handoff === undefined &&
        endSession === undefined &&
        spec.say === undefined &&
        spec.vars === undefined
      ) {
        return spec.result;
      }
      return actionResult({
        ...(spec.result !== undefined ? { result: spec.result } : {}),
        ...(spec.handoff !== undefined ? { handoff: spec.handoff } : {}),
        ...(spec.say !== undefined ? { say: spec.say } : {}),
        ...(spec.vars !== undefined ? { vars: spec.vars } : {}),
        ...(endSession !== undefined ? { endSession } : {}),
      });
    });
  }
  return out;
}
