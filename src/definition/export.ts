/**
 * Exports tool definitions to what models see: the OpenAI Chat Completions `tools` array, the
 * Responses API function tools and the Realtime API session tools. Static parameters are never
 * included (resolve.ts already removed them from the schema); `{{ }}` mustache in descriptions
 * renders over session variables.
 */
import { renderMustache } from '../expressions/mustache.js';
import type { SessionSystemValues } from '../transform/types.js';
import type { ChatTool } from '../models/types.js';
import type { ToolDefinition, ToolSet } from './types.js';
import { argumentError } from '../option-checks.js';

/** Session values that descriptions may render. */
export interface ExportView {
  readonly vars?: Readonly<Record<string, unknown>>;
  readonly session?: SessionSystemValues;
}

/** A function tool of the OpenAI Responses API. */
export interface ResponsesFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string;
  readonly parameters: Record<string, unknown>;
  readonly strict: boolean;
}

/** A function tool of the OpenAI Realtime API session (`session.tools`). */
export interface RealtimeFunctionTool {
  readonly type: 'function';
  readonly name: string;
  readonly description?: string;
  readonly parameters: Record<string, unknown>;
}

// The exported functions spell this out: a user names the two public types, not an alias.
type ToolSource = ToolSet | Iterable<ToolDefinition>;

function definitions(source: ToolSource, caller: string): Iterable<ToolDefinition> {
  if (typeof source === 'object' && source !== null) {
    if ('tools' in source && source.tools instanceof Map) return source.tools.values();
    if (Symbol.iterator in source) return source;
  }
  throw argumentError(
    `${caller}(source)`,
    'a ToolSet (from `await loadTools(...)`) or a list of its definitions',
    source,
  );
}

function description(def: ToolDefinition, view: ExportView): string | undefined {
  const text = def.tool.function.description;
  if (text === undefined || !text.includes('{{')) return text;
  return renderMustache(text, view);
}

/** The Chat Completions `tools` array. */
export function toChatTools(
  source: ToolSet | Iterable<ToolDefinition>,
  view: ExportView = {},
): ChatTool[] {
  return chatTools(source, view, 'toChatTools');
}

function chatTools(source: ToolSource, view: ExportView, caller: string): ChatTool[] {
  const out: ChatTool[] = [];
  for (const def of definitions(source, caller)) {
    const desc = description(def, view);
    const fn = def.tool.function;
    out.push({
      type: 'function',
      function: {
        name: fn.name,
        ...(desc !== undefined ? { description: desc } : {}),
        parameters: fn.parameters,
        ...(fn.strict !== undefined ? { strict: fn.strict } : {}),
      },
    });
  }
  return out;
}

/** Responses API function tools (`strict` defaults to false when the definition is silent). */
export function toResponsesTools(
  source: ToolSet | Iterable<ToolDefinition>,
  view: ExportView = {},
): ResponsesFunctionTool[] {
  return chatTools(source, view, 'toResponsesTools').map(({ function: fn }) => ({
    type: 'function',
    name: fn.name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    parameters: fn.parameters,
    strict: fn.strict ?? false,
  }));
}

/** Realtime API session tools. */
export function toRealtimeTools(
  source: ToolSet | Iterable<ToolDefinition>,
  view: ExportView = {},
): RealtimeFunctionTool[] {
  return chatTools(source, view, 'toRealtimeTools').map(({ function: fn }) => ({
    type: 'function',
    name: fn.name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    parameters: fn.parameters,
  }));
}
