/**
 * What a live session (live-session.ts) shares or makes lazily around its handlers: the slots of
 * its handlers, the action map, the default tool call ids, and the caches of agent tool maps and
 * chat tools shared across sessions.
 */
import { randomUUID } from 'node:crypto';
import type { ToolDefinition, ToolType } from '../definition/types.js';
import type { ActionHandler, Handler } from '../handlers/types.js';
import type { ChatTool } from '../models/types.js';
import type { AgentConfig, SessionOptions } from './types.js';

export /**
 * A session's handlers, made on first use: one slot per tool type (one small object of one shape
 * for every session, where a map made a hash table per session).
 */
class SessionHandlers implements Partial<Record<ToolType, Handler>> {
  action: Handler | undefined = undefined;
  endpoint: Handler | undefined = undefined;
  context: Handler | undefined = undefined;
  log: Handler | undefined = undefined;
  command: Handler | undefined = undefined;
}

// Shared across sessions: the tool map of each agent config, and the chat tools of each tool map
// when no description needs rendering. This keeps an idle session small.
export const agentTools = new WeakMap<
  AgentConfig,
  {
    readonly all: ReadonlyMap<string, ToolDefinition>;
    readonly tools: ReadonlyMap<string, ToolDefinition>;
  }
>();
export const chatToolCache = new WeakMap<
  ReadonlyMap<string, ToolDefinition>,
  readonly ChatTool[]
>();

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
