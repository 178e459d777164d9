// Hand-made tool definitions for session tests (no loader needed): a validator that checks
// `required` and `enum` of top-level properties, and identity defaults.
import type { ToolDefinition, ToolSet, ToolType, HttpMethod } from '../../src/definition/types.js';
import { defaultVoicePolicy } from '../../src/definition/voice-options.js';

export interface MiniTool {
  name: string;
  type?: ToolType;
  method?: HttpMethod;
  properties?: Record<string, { type?: string; enum?: string[] }>;
  required?: string[];
  description?: string;
  result?: unknown;
  bridgePhrases?: Record<string, string[]>;
  save?: { from: string; to: string }[];
}

export function miniTool(t: MiniTool): ToolDefinition {
  const properties = t.properties ?? {};
  const required = t.required ?? [];
  return {
    name: t.name,
    type: t.type ?? 'action',
    tool: {
      type: 'function',
      function: {
        name: t.name,
        ...(t.description === undefined ? {} : { description: t.description }),
        parameters: { type: 'object', properties, required },
      },
    },
    ...(t.type === 'endpoint'
      ? {
          endpoint: {
            url: 'https://api.example.test/x',
            method: t.method ?? 'get',
            argumentLocation: 'query',
            timeoutSecs: 20,
            pathParams: [],
          },
        }
      : {}),
    defaults: { rules: [], apply: (args) => ({ ok: true, args: { ...args }, trace: [] }) },
    rawDefaults: {},
    staticParameters: [],
    tasks: [],
    hasResult: t.result !== undefined,
    ...(t.result === undefined ? {} : { result: t.result }),
    options: {
      propagateToolResult: false,
      save: t.save ?? [],
      bridgePhrases: t.bridgePhrases ?? {},
      ...defaultVoicePolicy(
        t.type ?? 'action',
        t.type === 'endpoint' ? (t.method ?? 'get') : undefined,
      ),
    },
    validator: {
      validate(value) {
        const failures: { path: string; message: string }[] = [];
        const v = value as Record<string, unknown>;
        for (const r of required)
          if (!Object.hasOwn(v, r))
            failures.push({ path: '', message: `must have required property '${r}'` });
        for (const [k, p] of Object.entries(properties)) {
          if (p.enum !== undefined && Object.hasOwn(v, k) && !p.enum.includes(v[k] as string)) {
            failures.push({
              path: `/${k}`,
              message: `must be equal to one of the allowed values: ${p.enum.join(', ')}`,
            });
          }
        }
        return failures.length === 0 ? { ok: true, value } : { ok: false, failures };
      },
    },
    source: { index: 0 },
  };
}

export function toolSet(...tools: MiniTool[]): ToolSet {
  return { tools: new Map(tools.map((t) => [t.name, miniTool(t)])), warnings: [], files: [] };
}
