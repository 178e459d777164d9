/**
 * Which tools a host serves outside a session's own model (over MCP, through a framework
 * adapter) and the session options that go with them. Action tools need a host handler: without
 * one they could only ever answer `not_available`, so they are left out.
 */
import type { ToolDefinition, ToolSet } from '../definition/types.js';
import type { ActionHandler } from '../handlers/types.js';
import { createSession } from '../session/create-session.js';
import type { AgentConfig, SessionOptions } from '../session/types.js';
import { warnOnce } from '../option-checks.js';
import { ignoredOptionWarnings, type CallDriver } from './ignored-options.js';

export type { CallDriver };

/**
 * The session options a host passes on when something else drives the calls (an MCP client, a
 * framework's model). The runner's own model drives every session, so what steers a model's
 * turn is not taken: no model, round or call caps, model id, final answer, system prompt, and no
 * speech acknowledgement (`auto`; an adapter that plays speech back acknowledges it itself).
 */
export type CallSessionOptions = Omit<
  SessionOptions,
  // The keys spelled out, not an alias: entries export this type, and users read its declaration.
  | 'model'
  | 'maxToolRounds'
  | 'maxCalls'
  | 'modelId'
  | 'finalAnswerAfterMaxRounds'
  | 'speechAck'
  | 'prompt'
  | 'systemContext'
  | 'tools'
  | 'id'
  | 'onTurn'
>;

/**
 * `options` without what {@link CallSessionOptions} leaves out (a JavaScript host, or one sharing
 * a session's options object, may pass it anyway), and agents without their own `model` and
 * `maxCalls`, which would take the call away from the runner's model or refuse it. Each such key
 * that was set is an `ignored_option` warning (to `onWarning`, else once per process).
 */
export function callSessionOptions(
  options: CallSessionOptions,
  driver: CallDriver,
): CallSessionOptions {
  const warn = typeof options.onWarning === 'function' ? options.onWarning : warnOnce;
  for (const issue of ignoredOptionWarnings(options, driver)) warn(issue);
  const {
    model: _m,
    maxToolRounds: _r,
    maxCalls: _c,
    modelId: _i,
    finalAnswerAfterMaxRounds: _f,
    speechAck: _s,
    prompt: _p,
    systemContext: _sc,
    onTurn: _t,
    id: _id,
    ...rest
  } = options as SessionOptions;
  if (rest.agents === undefined) return rest;
  // fromEntries defines own properties: an agent named `__proto__` stays an agent.
  const agents = Object.fromEntries(
    Object.entries(rest.agents).map(([name, agent]): [string, AgentConfig] => {
      const { model: _am, maxCalls: _ac, ...kept } = agent;
      return [name, kept];
    }),
  );
  return { ...rest, agents };
}

/** A tool set with the session options that go with it (the action handlers of its tools). */
export interface ServedTools {
  /** The served tool set (action tools without a handler already left out). */
  readonly tools: ToolSet;
  readonly options: CallSessionOptions;
}

/**
 * The tools served: every definition except action tools the host has no handler for. A new
 * set only when something is left out.
 */
export function servedToolSet(tools: ToolSet, actions: ReadonlySet<string>): ToolSet {
  let hidden = false;
  for (const def of tools.tools.values()) if (!isServed(def, actions)) hidden = true;
  if (!hidden) return tools;
  const served = new Map<string, ToolDefinition>();
  for (const [name, def] of tools.tools) if (isServed(def, actions)) served.set(name, def);
  return { tools: served, warnings: tools.warnings, files: tools.files };
}

/** Action tools of `tools` left out for want of a handler, by name. */
export function unservedActions(tools: ToolSet, actions: ReadonlySet<string>): string[] {
  return [...tools.tools.values()].filter((d) => !isServed(d, actions)).map((d) => d.name);
}

function isServed(def: ToolDefinition, actions: ReadonlySet<string>): boolean {
  return def.type !== 'action' || actions.has(def.name);
}

/**
 * The served set of `tools` with `options`, after `createSession` accepted them: a host
 * configuration mistake (an agent naming a tool it lacks, a bad language, services) throws here,
 * at start, not on a call; its warnings (`onWarning`) are given here, once. The sessions made from
 * the result (one per MCP session, another after each history trim) would only repeat them.
 */
export function checkedServedTools(tools: ToolSet, options: CallSessionOptions): ServedTools {
  const served = servedToolSet(tools, actionNames(options.actions));
  void createSession({
    ...options,
    tools: served,
    model: { name: 'check', stream: noAnswer },
  }).close();
  return { tools: served, options: { ...options, onWarning: warnedAtCheck } };
}

async function* noAnswer(): AsyncGenerator<never> {}

/** The `onWarning` of sessions whose options {@link checkedServedTools} already checked. */
function warnedAtCheck(): void {}

/** The host's handlers for the action tools of `tools`. */
export function handlersFor(
  actions: NonNullable<CallSessionOptions['actions']>,
  tools: ToolSet,
): Map<string, ActionHandler> {
  const out = new Map<string, ActionHandler>();
  for (const [name, handler] of handlerEntries(actions))
    if (tools.tools.get(name)?.type === 'action') out.set(name, handler);
  return out;
}

/** The names the host has action handlers for. */
export function actionNames(actions: CallSessionOptions['actions']): ReadonlySet<string> {
  if (actions === undefined) return new Set();
  return new Set(handlerEntries(actions).map(([name]) => name));
}

function handlerEntries(
  actions: NonNullable<CallSessionOptions['actions']>,
): [string, ActionHandler][] {
  return actions instanceof Map
    ? [...(actions as ReadonlyMap<string, ActionHandler>)]
    : Object.entries(actions as Readonly<Record<string, ActionHandler>>);
}
