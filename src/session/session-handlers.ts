/**
 * What a live session (live-session.ts) makes lazily around its handlers: the slots of its
 * handlers, each handler from the session's options, its secret set, the action map, and the
 * default tool call ids.
 */
import { randomUUID } from 'node:crypto';
import type { ToolType } from '../definition/types.js';
import { SecretSet } from '../handlers/endpoint/secret-set.js';
import type { ActionHandler, Handler } from '../handlers/types.js';
import type { ArgumentLimits } from './argument-limits.js';
import {
  createActionHandler,
  createCommandHandler,
  createContextHandler,
  createEndpointHandler,
  createLogHandler,
  type EndpointHandlerOptions,
} from './deps.js';
import { limitEndpointCalls } from './endpoint-limiter.js';
import type { SessionOptions } from './types.js';

/**
 * A session's handlers, made on first use: one slot per tool type (one small object of one shape
 * for every session, where a map made a hash table per session).
 */
export class SessionHandlers implements Partial<Record<ToolType, Handler>> {
  action: Handler | undefined = undefined;
  endpoint: Handler | undefined = undefined;
  context: Handler | undefined = undefined;
  log: Handler | undefined = undefined;
  command: Handler | undefined = undefined;
}

let idCounter = 0;
const idPrefix = randomUUID().slice(0, 8);
export function defaultId(): string {
  return `call_${idPrefix}_${(++idCounter).toString(36)}`;
}

export function toActionMap(
  actions: SessionOptions['actions'],
): ReadonlyMap<string, ActionHandler> {
  if (actions === undefined) return new Map();
  if (actions instanceof Map) return actions;
  return new Map(Object.entries(actions as Readonly<Record<string, ActionHandler>>));
}

/** The part of a session its handlers are made from. */
export interface HandlerHost {
  readonly options: SessionOptions;
  readonly now: () => number;
  readonly limits: ArgumentLimits;
  secrets(): SecretSet;
}

/** A session's secrets: the host's set (or a new one) with its services', commands' and models'. */
export function sessionSecrets(o: SessionOptions): SecretSet {
  const set = o.secrets ?? new SecretSet();
  if (o.services !== undefined) set.addServices(o.services);
  for (const command of Object.values(o.commands ?? {}))
    for (const value of Object.values(command.env ?? {})) set.add(value);
  for (const model of [o.model, ...Object.values(o.agents ?? {}).map((a) => a.model)])
    for (const credential of model?.credentials?.() ?? []) set.add(credential);
  return set;
}

/** The endpoint handler of a session, under its cap on concurrent calls; the session closes it. */
export function sessionEndpointHandler(host: HandlerHost): Handler & { close(): Promise<void> } {
  const o = host.options;
  // Keys set one by one, not conditional spreads: a literal starting with spreads gives each
  // session's handler options a hidden class of its own once optimized, and the handler
  // reads them on every call (docs/performance-notes.md).
  const endpoint: {
    -readonly [K in keyof EndpointHandlerOptions]: EndpointHandlerOptions[K];
  } = { now: host.now };
  if (o.dispatcher !== undefined) endpoint.dispatcher = o.dispatcher;
  if (o.pools !== undefined) endpoint.pools = o.pools;
  if (o.services !== undefined) endpoint.services = o.services;
  endpoint.secrets = host.secrets();
  if (o.networkPolicy !== undefined) endpoint.networkPolicy = o.networkPolicy;
  if (o.maxResponseBytes !== undefined) endpoint.maxResponseBytes = o.maxResponseBytes;
  if (o._internal?.sleep !== undefined) endpoint.sleep = o._internal.sleep;
  return limitEndpointCalls(
    createEndpointHandler(endpoint),
    host.limits.maxConcurrentEndpointCalls,
    host.now,
  );
}

/** A session's handler of any other tool type. */
export function sessionHandler(type: Exclude<ToolType, 'endpoint'>, host: HandlerHost): Handler {
  const o = host.options;
  switch (type) {
    case 'action':
      return createActionHandler({
        actions: toActionMap(o.actions),
        now: host.now,
        ...(o.actionTimeoutSecs === undefined ? {} : { timeoutSecs: o.actionTimeoutSecs }),
      });
    case 'context':
      return createContextHandler({ now: host.now });
    case 'log':
      return createLogHandler({ now: host.now });
    case 'command':
      return createCommandHandler({
        now: host.now,
        secrets: host.secrets(),
        ...(o.commands === undefined ? {} : { commands: o.commands }),
        ...(o.commandRunner === undefined ? {} : { runner: o.commandRunner }),
      });
    default: {
      const _exhaustive: never = type;
      return _exhaustive;
    }
  }
}
