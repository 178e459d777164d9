/**
 * withTextMarkers: tool calling for models without native tool calls. The tools are described in
 * the system prompt (never sent natively); the model writes `<tool>{"name":…,"input":{…}}</tool>`
 * in its text; the markers are parsed from the stream as it arrives (split anywhere) and never
 * reach a `text-delta`. Earlier tool calls are shown back to the model as the same markers, and
 * tool results as user messages (`Tool result for <name> (<id>): …`).
 *
 * A malformed marker (body not JSON, no `name`, or never closed) is still surfaced as a tool
 * call, so the model gets a tool error it can correct: the name is recovered when possible (else
 * `invalid_tool_call`, answered with `unknown_tool`), and the raw body is passed as the arguments
 * (answered with `invalid_arguments` quoting where parsing failed).
 */
import { randomUUID } from 'node:crypto';
import { MarkerParser, type MarkerPiece } from './marker-parser.js';
import { argsValue, toTextHistory } from './text-history.js';
import type {
  ChatMessage,
  ChatTool,
  Model,
  ModelRequest,
  ModelStreamPart,
  ModelToolCall,
} from './types.js';
import { checkWrapped, wrappedCapabilities } from './wrap.js';

/** Name given to a marker whose tool name cannot be recovered. */
export const INVALID_TOOL_CALL_NAME = 'invalid_tool_call';

/** Options of {@link withTextMarkers}. */
export interface TextMarkerOptions {
  /** Replaces the default instructions; `{{tools}}` is replaced by the tools as JSON. */
  readonly instructions?: string;
  /** Id source for parsed calls. Default: `marker_<random>_<n>`. */
  readonly generateId?: () => string;
}

const DEFAULT_INSTRUCTIONS = `You can call tools. To call a tool, write exactly one line per call:
<tool>{"name": "<tool name>", "input": {<arguments as JSON>}}</tool>
Write nothing after your tool calls; the results come back in the next message. Only call the tools listed here:
{{tools}}`;

/** Wraps a text-only model so it can call tools through text markers. */
export function withTextMarkers(model: Model, options: TextMarkerOptions = {}): Model {
  checkWrapped('withTextMarkers', model);
  let counter = 0;
  const prefix = randomUUID().slice(0, 8);
  const generateId = options.generateId ?? (() => `marker_${prefix}_${++counter}`);
  return {
    name: `${model.name}+markers`,
    stream: (request) => streamWithMarkers(model, request, options, generateId),
    ...wrappedCapabilities(model),
  };
}

async function* streamWithMarkers(
  model: Model,
  request: ModelRequest,
  options: TextMarkerOptions,
  generateId: () => string,
): AsyncGenerator<ModelStreamPart> {
  const inner: ModelRequest = {
    messages: toMarkerMessages(
      request.messages,
      request.tools,
      options.instructions ?? DEFAULT_INSTRUCTIONS,
    ),
    tools: [],
    signal: request.signal,
    ...(request.modelId === undefined ? {} : { modelId: request.modelId }),
  };
  const parser = new MarkerParser();
  for await (const part of model.stream(inner)) {
    switch (part.type) {
      case 'text-delta':
        yield* piecesToParts(parser.push(part.text), generateId);
        break;
      case 'tool-call':
        // A wrapped model that does support native calls: pass them through.
        yield part;
        break;
      case 'finish':
        yield* piecesToParts(parser.end(), generateId);
        yield part;
        return;
      default: {
        const _exhaustive: never = part;
        void _exhaustive;
      }
    }
  }
  yield* piecesToParts(parser.end(), generateId);
}

function* piecesToParts(
  pieces: readonly MarkerPiece[],
  generateId: () => string,
): Generator<ModelStreamPart> {
  for (const piece of pieces) {
    if (piece.type === 'text') {
      if (piece.text !== '') yield { type: 'text-delta', text: piece.text };
    } else {
      yield {
        type: 'tool-call',
        call: markerToCall(piece.body, piece.type === 'unterminated', generateId()),
      };
    }
  }
}

/**
 * Turns a marker body into a tool call (see the module header for malformed bodies). The name is
 * only ever read from the top level of the marker (`name`, then `tool`): a nested `"name"` (say,
 * an argument) never chooses the tool.
 */
export function markerToCall(body: string, unterminated: boolean, id: string): ModelToolCall {
  if (!unterminated) {
    try {
      const value: unknown = JSON.parse(body);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const input = Object.hasOwn(value, 'input')
          ? (value as { input: unknown }).input
          : Object.hasOwn(value, 'arguments')
            ? (value as { arguments: unknown }).arguments
            : {};
        const name = topLevelName(value);
        if (name !== undefined) {
          return {
            id,
            name,
            arguments: typeof input === 'string' ? input : JSON.stringify(input ?? {}),
          };
        }
        return { id, name: INVALID_TOOL_CALL_NAME, arguments: body };
      }
    } catch {
      // fall through to the malformed path
    }
  }
  // Unparseable: only a name that opens the object is certainly top level.
  const recovered = /^\s*\{\s*"(?:name|tool)"\s*:\s*"([^"\\]{1,200})"/.exec(body)?.[1];
  return { id, name: recovered ?? INVALID_TOOL_CALL_NAME, arguments: body };
}

function topLevelName(value: object): string | undefined {
  for (const key of ['name', 'tool']) {
    const name: unknown = Object.hasOwn(value, key)
      ? (value as Record<string, unknown>)[key]
      : undefined;
    if (typeof name === 'string' && name !== '') return name;
  }
  return undefined;
}

/** Rewrites history for a text-only model: instructions in the system prompt, calls as markers, results as user text. */
export function toMarkerMessages(
  messages: readonly ChatMessage[],
  tools: readonly ChatTool[],
  instructions: string,
): ChatMessage[] {
  return toTextHistory(messages, tools, {
    instructions,
    alwaysInstruct: false,
    assistant: (text, calls) =>
      calls.reduce(
        (content, c) =>
          `${content}${content === '' ? '' : '\n'}<tool>${JSON.stringify({ name: c.name, input: argsValue(c.args) })}</tool>`,
        text,
      ),
  });
}
