/**
 * withJsonToolCalls: the third tool-call transport (beside native calls and text markers), for
 * models that have neither — Symphony's JSON convention. Each reply of the model is one JSON
 * object: `{"tool": "<name>", "input": {…}}` calls a tool, `{"tool": "none", "response": "…"}`
 * answers. The tools and this contract go into the system prompt (never sent natively); earlier
 * calls and answers are shown back to the model in the same notation, tool results as user
 * messages (text-history.ts).
 *
 * The reply is buffered to its end: whether it is a call or an answer is known only once it is
 * parsed, and JSON must never be spoken. Malformed replies follow the text markers' decisions
 * (text-markers.ts): a reply that opens a JSON object but does not parse, or names no tool, is
 * still surfaced as a tool call so the model gets an error it can correct (name recovered when
 * possible, else `invalid_tool_call`; the raw reply as the arguments); a reply that holds no JSON
 * object is text, and text around the object is text, as text outside markers is.
 */
import { randomUUID } from 'node:crypto';
import { argsValue, toTextHistory } from './text-history.js';
import { markerToCall } from './text-markers.js';
import type { ChatMessage, ChatTool, Model, ModelRequest, ModelStreamPart } from './types.js';
import { checkWrapped, wrappedCapabilities } from './wrap.js';

/** The `tool` value of an answer. */
export const JSON_NO_TOOL = 'none';

/** Options of {@link withJsonToolCalls}. */
export interface JsonToolCallOptions {
  /** Replaces the default instructions; `{{tools}}` is replaced by the tools as JSON. */
  readonly instructions?: string;
  /** Id source for parsed calls. Default: `json_<random>_<n>`. */
  readonly generateId?: () => string;
}

const DEFAULT_INSTRUCTIONS = `Reply with exactly one JSON object and nothing else.
To call a tool: {"tool": "<tool name>", "input": {<arguments as JSON>}}
To answer the user: {"tool": "none", "response": "<your answer>"}
Call one tool per reply; its result comes back in the next message. Only call the tools listed here:
{{tools}}`;

/** Wraps a model so it calls tools by replying with JSON objects. */
export function withJsonToolCalls(model: Model, options: JsonToolCallOptions = {}): Model {
  checkWrapped('withJsonToolCalls', model);
  let counter = 0;
  const prefix = randomUUID().slice(0, 8);
  const generateId = options.generateId ?? (() => `json_${prefix}_${++counter}`);
  const instructions = options.instructions ?? DEFAULT_INSTRUCTIONS;
  return {
    name: `${model.name}+json`,
    stream: (request) => streamJson(model, request, instructions, generateId),
    ...wrappedCapabilities(model),
  };
}

async function* streamJson(
  model: Model,
  request: ModelRequest,
  instructions: string,
  generateId: () => string,
): AsyncGenerator<ModelStreamPart> {
  const inner: ModelRequest = {
    messages: toJsonMessages(request.messages, request.tools, instructions),
    tools: [],
    signal: request.signal,
    ...(request.modelId === undefined ? {} : { modelId: request.modelId }),
  };
  let reply = '';
  for await (const part of model.stream(inner)) {
    switch (part.type) {
      case 'text-delta':
        reply += part.text;
        break;
      case 'tool-call':
        // A wrapped model that does support native calls: pass them through.
        yield part;
        break;
      case 'finish':
        yield* replyToParts(reply, generateId);
        yield part;
        return;
      default: {
        const _exhaustive: never = part;
        void _exhaustive;
      }
    }
  }
  yield* replyToParts(reply, generateId);
}

function* replyToParts(reply: string, generateId: () => string): Generator<ModelStreamPart> {
  const { lead, body, trail } = splitReply(reply);
  if (lead.trim() !== '') yield { type: 'text-delta', text: lead };
  const parsed = parseJsonReply(body, generateId);
  if (parsed.type === 'call') yield { type: 'tool-call', call: parsed.call };
  else if (parsed.text !== '') yield { type: 'text-delta', text: parsed.text };
  if (trail.trim() !== '') yield { type: 'text-delta', text: trail };
}

/**
 * Finds the reply's JSON object: the whole reply when it opens one (after whitespace and a code
 * fence), else the first `{"tool":` in it. Text around the object is text, as text around a
 * marker is; an object that never closes runs to the end (and is malformed).
 */
export function splitReply(reply: string): { lead: string; body: string; trail: string } {
  const s = unfenced(reply.trim());
  const start = s.startsWith('{') ? 0 : s.search(/\{\s*"tool"\s*:/);
  if (start < 0) return { lead: '', body: reply, trail: '' };
  const end = objectEnd(s, start);
  return {
    lead: s.slice(0, start).replace(/```[A-Za-z]*\s*$/, ''),
    body: s.slice(start, end),
    trail: s.slice(end).replace(/^\s*```/, ''),
  };
}

/** The index just past the JSON object opening at `start` (brackets outside strings), or the end. */
function objectEnd(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return s.length;
}

/** What one reply means. */
export type JsonReply =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'call';
      readonly call: { readonly id: string; readonly name: string; readonly arguments: string };
    };

/**
 * Reads one reply's JSON object (see the module header; {@link splitReply} finds it). A single
 * Markdown code fence around the object (```json … ```) is taken off first: models add it often,
 * and it carries no meaning.
 */
export function parseJsonReply(reply: string, generateId: () => string): JsonReply {
  const body = unfenced(reply.trim());
  if (!body.startsWith('{')) return { type: 'text', text: reply };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { type: 'call', call: markerToCall(body, false, generateId()) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { type: 'call', call: markerToCall(body, false, generateId()) };
  const tool: unknown = Object.hasOwn(value, 'tool')
    ? (value as { tool: unknown }).tool
    : undefined;
  if (tool === JSON_NO_TOOL) {
    const response: unknown = Object.hasOwn(value, 'response')
      ? (value as { response: unknown }).response
      : undefined;
    return { type: 'text', text: answerText(response) };
  }
  if (typeof tool === 'string' && tool !== '') {
    const input: unknown = Object.hasOwn(value, 'input')
      ? (value as { input: unknown }).input
      : Object.hasOwn(value, 'arguments')
        ? (value as { arguments: unknown }).arguments
        : {};
    return {
      type: 'call',
      call: {
        id: generateId(),
        name: tool,
        arguments: typeof input === 'string' ? input : JSON.stringify(input ?? {}),
      },
    };
  }
  // No usable `tool`: the markers' rules (a top-level `name`, else `invalid_tool_call`).
  return { type: 'call', call: markerToCall(body, false, generateId()) };
}

/** `response` as spoken text: a string as is, absent or null as nothing, anything else as JSON. */
function answerText(response: unknown): string {
  if (response === undefined || response === null) return '';
  return typeof response === 'string' ? response : JSON.stringify(response);
}

function unfenced(text: string): string {
  const m = /^```[A-Za-z]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  return m === null ? text : m[1]!.trim();
}

/** Rewrites history for the JSON transport: calls and answers as the JSON objects the model writes. */
export function toJsonMessages(
  messages: readonly ChatMessage[],
  tools: readonly ChatTool[],
  instructions: string,
): ChatMessage[] {
  return toTextHistory(messages, tools, {
    instructions,
    // Every reply is JSON, tools or not, so the contract is always stated.
    alwaysInstruct: true,
    assistant: (text, calls) =>
      [
        ...(text === '' ? [] : [JSON.stringify({ tool: JSON_NO_TOOL, response: text })]),
        ...calls.map((c) => JSON.stringify({ tool: c.name, input: argsValue(c.args) })),
      ].join('\n'),
  });
}
