/**
 * Test helpers for handlers: ToolDefinition and HandlerContext builders that do not depend on
 * the definition loader.
 */
import type { EndpointConfig, ToolDefinition, ToolType } from '../../src/definition/types.js';
import { defaultVoicePolicy } from '../../src/definition/voice-options.js';
import type {
  HandlerContext,
  HandlerSession,
  HttpExchangeRecord,
} from '../../src/handlers/types.js';

/** Overrides of {@link makeTool}. */
export interface ToolOverrides {
  readonly name?: string;
  readonly type?: ToolType;
  readonly endpoint?: Partial<EndpointConfig> & { readonly url: string };
  readonly result?: unknown;
  readonly service?: string;
}

/** A resolved tool definition with inert defaults and validator. */
export function makeTool(overrides: ToolOverrides = {}): ToolDefinition {
  const name = overrides.name ?? 'test_tool';
  const type = overrides.type ?? (overrides.endpoint !== undefined ? 'endpoint' : 'action');
  const endpoint: EndpointConfig | undefined =
    overrides.endpoint === undefined
      ? undefined
      : {
          method: 'get',
          argumentLocation:
            overrides.endpoint.method === 'post' || overrides.endpoint.method === 'put'
              ? 'body'
              : 'query',
          timeoutSecs: 2,
          pathParams: [...overrides.endpoint.url.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? ''),
          ...overrides.endpoint,
        };
  return {
    name,
    type,
    tool: { type: 'function', function: { name, parameters: { type: 'object' } } },
    ...(endpoint === undefined ? {} : { endpoint }),
    defaults: { rules: [], apply: (a) => ({ ok: true, args: { ...a }, trace: [] }) },
    rawDefaults: {},
    staticParameters: [],
    tasks: [],
    hasResult: Object.hasOwn(overrides, 'result'),
    ...(Object.hasOwn(overrides, 'result') ? { result: overrides.result } : {}),
    options: {
      propagateToolResult: false,
      save: [],
      bridgePhrases: {},
      ...defaultVoicePolicy(type, endpoint?.method),
    },
    ...(overrides.service === undefined ? {} : { service: overrides.service }),
    validator: { validate: (value) => ({ ok: true, value }) },
    source: { index: 0 },
  };
}

/** Overrides of {@link makeContext}. */
export interface ContextOverrides {
  readonly signal?: AbortSignal;
  readonly session?: Partial<HandlerSession>;
  readonly onRequest?: (record: HttpExchangeRecord) => void;
}

/** A handler context for `tool`, with a fresh session view. */
export function makeContext(
  tool: ToolDefinition,
  overrides: ContextOverrides = {},
): HandlerContext {
  return {
    tool,
    callId: 'call_1',
    session: { id: 'sess_1', language: 'en-US', vars: {}, ...overrides.session },
    signal: overrides.signal ?? new AbortController().signal,
    ...(overrides.onRequest === undefined ? {} : { onRequest: overrides.onRequest }),
  };
}
