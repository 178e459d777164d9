/**
 * createAgent: a fluent builder over {@link createSession} for hosts that like the agent-loop
 * style (Cone/Synapse): `createAgent(name).withSystem(…).withTools(…).withModel(…).maxTurns(n)
 * .maxToolCallsPerTurn(n).build()`. No second engine: every setting maps onto a session option
 * (docs/session.md, "createAgent"), and the built agent is one session — one conversation.
 *
 * Each method returns a new builder (a builder is a value: a half-configured one can be shared
 * and finished in several ways). Mistakes are reported all together by `build()`, which throws a
 * {@link DefinitionError} naming each one; then `createSession` checks the options it owns.
 */
import type { ToolSet } from '../definition/types.js';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import type { Model } from '../models/types.js';
import { integer, isToolSet as checkToolSet, kindOf } from '../option-checks.js';
import { isPlainObject } from '../own-data.js';
import { createSession } from './create-session.js';
import type { Session, SessionOptions, TurnStream } from './types.js';

/** Session options the builder does not set itself (passed through by `withOptions`). */
export type AgentSessionOptions = Omit<
  SessionOptions,
  'tools' | 'model' | 'prompt' | 'agents' | 'agent' | 'maxToolRounds' | 'actions'
>;

/** A built agent: one conversation. Turns run one at a time, in call order. */
export interface Agent {
  readonly name: string;
  /** The session underneath (state, variables, `interrupt`, `close`, …). */
  readonly session: Session;
  /** Runs one turn; iterate for its events (`result` is the turn's result). */
  run(message: string): TurnStream;
  /** Runs one turn and resolves with its final text; rejects as `session.run` does. */
  ask(message: string): Promise<string>;
}

/** The fluent builder returned by {@link createAgent}. */
export interface AgentBuilder {
  /** The system prompt (mustache over session variables, as `SessionOptions.prompt`). */
  withSystem(text: string): AgentBuilder;
  /** The tools (from `loadTools`). Default: none. */
  withTools(tools: ToolSet): AgentBuilder;
  /** Host action handlers by tool name (`SessionOptions.actions`). */
  withActions(actions: SessionOptions['actions']): AgentBuilder;
  withModel(model: Model): AgentBuilder;
  /** Rounds of tool calls per turn (`SessionOptions.maxToolRounds`, default 8). */
  maxTurns(n: number): AgentBuilder;
  /** Tool calls run from one model answer (`limits.maxCallsPerAnswer`, default 32). */
  maxToolCallsPerTurn(n: number): AgentBuilder;
  /** Any other session option (variables, language, services, store, `onEvent`, …). */
  withOptions(options: AgentSessionOptions): AgentBuilder;
  /** Checks everything and creates the agent's session; throws DefinitionError on a mistake. */
  build(): Agent;
}

interface Settings {
  readonly name: unknown;
  readonly system?: unknown;
  readonly tools?: unknown;
  readonly actions?: SessionOptions['actions'];
  readonly model?: unknown;
  readonly maxTurns?: unknown;
  readonly maxToolCallsPerTurn?: unknown;
  readonly options?: AgentSessionOptions;
}

/** Starts building an agent called `name` (its name in the session's state and events). */
export function createAgent(name: string): AgentBuilder {
  return builder({ name });
}

function builder(s: Settings): AgentBuilder {
  const next = (change: Partial<Settings>): AgentBuilder => builder({ ...s, ...change });
  return {
    withSystem: (system) => next({ system }),
    withTools: (tools) => next({ tools }),
    withActions: (actions) => next({ actions }),
    withModel: (model) => next({ model }),
    maxTurns: (maxTurns) => next({ maxTurns }),
    maxToolCallsPerTurn: (maxToolCallsPerTurn) => next({ maxToolCallsPerTurn }),
    // Not an object: kept as given, for build() to name (a spread would hide it).
    withOptions: (options) =>
      next({ options: isPlainObject(options) ? { ...s.options, ...options } : options }),
    build: () => build(s),
  };
}

function build(s: Settings): Agent {
  const issues: DefinitionIssue[] = [];
  const problem = (path: string, message: string): void => {
    issues.push({ code: 'agent_options', severity: 'error', path, message });
  };
  const name = typeof s.name === 'string' ? s.name : '';
  if (name.trim() === '')
    problem('createAgent(name)', 'the agent needs a name (a non-empty string)');
  if (s.model === undefined) problem('withModel', 'no model: call withModel(model)');
  else if (!isModel(s.model)) problem('withModel', 'expected a Model (an object with stream())');
  if (s.system !== undefined && typeof s.system !== 'string')
    problem('withSystem', 'expected the system prompt as a string');
  // The option checks' words (a Promise named as one, a value's kind rather than the value).
  const sink = { problem, unknownKey: () => undefined };
  if (s.tools !== undefined) checkToolSet(s.tools, 'withTools', sink);
  for (const [path, value] of [
    ['maxTurns', s.maxTurns],
    ['maxToolCallsPerTurn', s.maxToolCallsPerTurn],
  ] as const)
    if (value !== undefined) positiveInteger(value, path, sink);
  if (s.options !== undefined && !isPlainObject(s.options))
    problem('withOptions', `expected an object of session options, got ${kindOf(s.options)}`);
  if (issues.length > 0) throw new DefinitionError(issues, `invalid agent "${name}"`);

  const extra = s.options ?? {};
  const session = createSession({
    ...extra,
    tools: (s.tools as ToolSet | undefined) ?? { tools: new Map(), warnings: [], files: [] },
    model: s.model as Model,
    agents: { [name]: { prompt: (s.system as string | undefined) ?? '' } },
    agent: name,
    ...(s.actions === undefined ? {} : { actions: s.actions }),
    ...(s.maxTurns === undefined ? {} : { maxToolRounds: s.maxTurns as number }),
    ...(s.maxToolCallsPerTurn === undefined
      ? {}
      : { limits: { ...extra.limits, maxCallsPerAnswer: s.maxToolCallsPerTurn as number } }),
  });
  return {
    name,
    session,
    run: (message) => session.send(message),
    ask: async (message) => (await session.run(message)).content,
  };
}

const positiveInteger = integer(1);

function isModel(value: unknown): value is Model {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { stream?: unknown }).stream === 'function'
  );
}
