/**
 * The session's imports from other areas, in one place (definition export, transform helpers,
 * handler factories). TEMPORARY stand-ins until those modules land; then this file re-exports.
 */
import Mustache from 'mustache';
import type { ToolDefinition, StaticParameter, SaveRule } from '../definition/types.js';
import { ToolError } from '../errors.js';
import type { ActionHandler, Handler, HandlerOutcome, SessionEffect } from '../handlers/types.js';
import type { ChatTool } from '../models/types.js';
import type { SessionSystemValues } from '../transform/types.js';
import type { Dispatcher } from 'undici';
import type { NetworkPolicy, ServiceConfig } from './types.js';

interface View {
  readonly vars?: Readonly<Record<string, unknown>>;
  readonly session?: SessionSystemValues;
}

export function renderMustache(template: string, view: View = {}): string {
  return Mustache.render(template, { ...(view.vars ?? {}), vars: view.vars ?? {}, session: view.session ?? {} }, {}, {
    escape: (s: string) => s,
  });
}

export function toChatTools(tools: Iterable<ToolDefinition>, view: View = {}): ChatTool[] {
  const out: ChatTool[] = [];
  for (const t of tools) {
    const f = t.tool.function;
    out.push({
      type: 'function',
      function: {
        name: f.name,
        ...(f.description === undefined ? {} : { description: renderMustache(f.description, view) }),
        parameters: f.parameters,
      },
    });
  }
  return out;
}

export function applyStaticParameters(
  args: Readonly<Record<string, unknown>>,
  params: readonly StaticParameter[],
  options: { overrides?: Readonly<Record<string, unknown>>; vars?: Readonly<Record<string, unknown>>; session?: SessionSystemValues } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...args };
  for (const p of params) {
    const v = options.overrides !== undefined && Object.hasOwn(options.overrides, p.name) ? options.overrides[p.name] : p.default;
    if (v === undefined) continue;
    Object.defineProperty(out, p.name, { value: typeof v === 'string' ? renderMustache(v, options) : v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export function applySaveRules(_output: unknown, _rules: readonly SaveRule[]): Record<string, unknown> {
  return {};
}

function done(body: { type: 'success'; output: unknown; effects?: SessionEffect[] } | { type: 'error'; error: ToolError }, startedAt: number): HandlerOutcome {
  const endedAt = Date.now();
  const t = { startedAt, endedAt, durationMs: endedAt - startedAt, requests: [] };
  return body.type === 'success' ? { ...body, effects: body.effects ?? [], ...t } : { ...body, effects: [], ...t };
}

export function createActionHandler(options: { actions: ReadonlyMap<string, ActionHandler>; timeoutSecs?: number }): Handler {
  return {
    kind: 'action',
    async execute(args, ctx) {
      const startedAt = Date.now();
      const fn = options.actions.get(ctx.tool.name);
      if (fn === undefined) {
        if (ctx.tool.hasResult) return done({ type: 'success', output: ctx.tool.result }, startedAt);
        return done({ type: 'error', error: new ToolError('not_available', `action ${ctx.tool.name} is not available`) }, startedAt);
      }
      try {
        const r = await fn(args, { tool: ctx.tool.name, callId: ctx.callId, session: ctx.session, signal: ctx.signal });
        if (r !== null && typeof r === 'object' && Object.hasOwn(r, '__action')) {
          const a = r as { result?: unknown; handoff?: string; say?: string; endSession?: boolean; vars?: Record<string, unknown> };
          const effects: SessionEffect[] = [];
          if (a.say !== undefined) effects.push({ type: 'say', text: a.say });
          if (a.vars !== undefined) effects.push({ type: 'set-vars', vars: a.vars });
          if (a.handoff !== undefined) effects.push({ type: 'handoff', agent: a.handoff });
          if (a.endSession === true) effects.push({ type: 'end-session' });
          return done({ type: 'success', output: a.result ?? { status: 'ok' }, effects }, startedAt);
        }
        return done({ type: 'success', output: r ?? (ctx.tool.hasResult ? ctx.tool.result : { status: 'ok' }) }, startedAt);
      } catch (err) {
        return done({ type: 'error', error: new ToolError('handler_error', String(err)) }, startedAt);
      }
    },
  };
}

export function actionResult(r: { result?: unknown; handoff?: string; say?: string; endSession?: boolean; vars?: Record<string, unknown> }): unknown {
  return { ...r, __action: true };
}

export function createContextHandler(): Handler {
  return {
    kind: 'context',
    async execute(args, ctx) {
      const startedAt = Date.now();
      const effects: SessionEffect[] = [];
      if (typeof args['language'] === 'string') effects.push({ type: 'language', from: ctx.session.language, to: args['language'] });
      if (typeof args['say'] === 'string') effects.push({ type: 'say', text: args['say'] });
      return done({ type: 'success', output: ctx.tool.hasResult ? ctx.tool.result : { ...args }, effects }, startedAt);
    },
  };
}

export function createLogHandler(): Handler {
  return {
    kind: 'log',
    async execute(args, ctx) {
      const startedAt = Date.now();
      return done({ type: 'success', output: ctx.tool.hasResult ? ctx.tool.result : { status: 'logged' }, effects: [{ type: 'log', args }] }, startedAt);
    },
  };
}

export function createEndpointHandler(_options: {
  dispatcher?: Dispatcher;
  services?: Readonly<Record<string, ServiceConfig>>;
  networkPolicy?: NetworkPolicy;
  maxResponseBytes?: number;
}): Handler & { close(): Promise<void> } {
  return {
    kind: 'endpoint',
    async execute(_args, _ctx) {
      return done({ type: 'error', error: new ToolError('not_available', 'endpoint stand-in') }, Date.now());
    },
    async close() {},
  };
}
