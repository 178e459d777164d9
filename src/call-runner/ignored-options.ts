/**
 * Session options that have no effect when something other than the session's own model makes
 * the calls (an MCP client, a framework's model): they steer a model's turn, and here each call
 * is one turn whose only model answer is that call. They are dropped, each with an
 * `ignored_option` warning naming the key and why, not refused: a host may share one options
 * object between its sessions and an adapter or MCP server.
 */
import type { DefinitionIssue } from '../errors.js';
import { isPlainObject } from '../own-data.js';

/** Who makes the calls, for the warnings: the function created and the caller it serves. */
export interface CallDriver {
  /** The function whose options they are, e.g. `createMcpServer`, `createAiTools`. */
  readonly caller: string;
  /** What makes the calls, e.g. `the MCP client`, `the framework's model`. */
  readonly calls: string;
}

/** Why each key has no effect; `{calls}` is who makes the calls. */
const WHY: ReadonlyMap<string, string> = new Map([
  ['model', 'the calls come from {calls}; no model of the session runs'],
  ['modelId', 'no model of the session runs, so there is no model to name'],
  ['maxToolRounds', 'each call is one turn of one round; there are no model rounds to cap'],
  ['maxCalls', 'every call {calls} makes runs: no model calls are counted here (cap them there)'],
  [
    'finalAnswerAfterMaxRounds',
    'no model of the session answers, so none is asked for a final answer',
  ],
  ['prompt', 'no model of the session reads a system prompt (instruct {calls} instead)'],
  ['systemContext', 'no model of the session reads system context (instruct {calls} instead)'],
  [
    'speechAck',
    "speech counts as played when it is emitted ('auto'): nothing here reports playback",
  ],
  [
    'onTurn',
    'no model answers the turns the engine starts on its own here; their events reach onEvent',
  ],
  ['id', 'each session here has an id of its own'],
]);

/** Why an agent's own key has no effect. */
const AGENT_WHY: ReadonlyMap<string, string> = new Map([
  ['model', 'the calls come from {calls}, whichever agent is active'],
  ['maxCalls', 'every call {calls} makes runs, whichever agent is active (cap them there)'],
]);

const PER_ANSWER = 'each model answer here holds exactly one call (from {calls})';

/**
 * The warnings for the keys of `options` (a host's session options) that {@link WHY} and
 * {@link AGENT_WHY} name and that are set. `speechAck: 'auto'` is what applies anyway.
 */
export function ignoredOptionWarnings(options: object, driver: CallDriver): DefinitionIssue[] {
  const out: DefinitionIssue[] = [];
  const warn = (path: string, why: string): void => {
    const text = why.replaceAll('{calls}', driver.calls);
    const message = `has no effect in ${driver.caller}: ${text}; it is ignored`;
    out.push({ code: 'ignored_option', severity: 'warning', path, message });
  };
  const given = (from: object, key: string): unknown =>
    Object.hasOwn(from, key) ? (from as Record<string, unknown>)[key] : undefined;
  for (const [key, why] of WHY) {
    const value = given(options, key);
    if (value !== undefined && !(key === 'speechAck' && value === 'auto')) warn(key, why);
  }
  const limits = given(options, 'limits');
  if (isPlainObject(limits) && given(limits, 'maxCallsPerAnswer') !== undefined)
    warn('limits.maxCallsPerAnswer', PER_ANSWER);
  const agents = given(options, 'agents');
  if (isPlainObject(agents))
    for (const name of Object.keys(agents)) {
      const agent = agents[name];
      if (!isPlainObject(agent)) continue;
      for (const [key, why] of AGENT_WHY)
        if (given(agent, key) !== undefined) warn(`agents.${name}.${key}`, why);
    }
  return out;
}
