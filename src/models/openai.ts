/**
 * The OpenAI-compatible adapter, on the official `openai` package, for every `baseURL` that
 * speaks Chat Completions (OpenAI, Azure, Ollama, vLLM, LM Studio…). Streams text, accumulates
 * tool-call deltas by index (a call's name and arguments may be split over many chunks), supports
 * parallel tool calls, and asks for usage with `stream_options.include_usage`.
 *
 * Failures become {@link ModelError}s with a clear message: `http_status` (with the status),
 * `timeout` (no response, or no chunk for `timeoutMs` while streaming), `network`.
 * The streamed answer is read here; the messages and tools sent are
 * openai-request.ts, the error mapping openai-errors.ts, an unstreamed answer openai-complete.ts.
 */
import type OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions';
import { baseUrlProblem, warnIfMisnamedBaseUrl } from './base-url.js';
import { checkOpenAIOptions } from './check-openai-options.js';
import { completionParts, isJsonAnswer, usageOf } from './openai-complete.js';
import { toModelError } from './openai-errors.js';
import { toOpenAIMessage, toOpenAITool } from './openai-request.js';
import { ModelError, abortError, scrubModelError } from './errors.js';
import type { Model, ModelRequest, ModelStreamPart, ModelUsage } from './types.js';

/** The `openai` package, loaded on a model's first request (not when switchboard is imported). */
type OpenAISdk = typeof import('openai');
let sdk: Promise<OpenAISdk> | undefined;
const loadSdk = (): Promise<OpenAISdk> => (sdk ??= import('openai'));

/** Re-exported: the tests read it from the adapter. */
export { shownURL } from './openai-errors.js';

/** Options of {@link openaiModel}. */
export interface OpenAIModelOptions {
  /** Model id, e.g. `gpt-4o-mini`. */
  readonly model: string;
  /** Default: the `openai` package's (OPENAI_BASE_URL or https://api.openai.com/v1). */
  readonly baseURL?: string;
  /** Default: OPENAI_API_KEY; local servers usually accept any value (default `"none"` then). */
  readonly apiKey?: string;
  /** Custom fetch (tests, proxies). */
  readonly fetch?: typeof fetch;
  /** Milliseconds to wait for the response, and then between streamed chunks. Default 60 000. */
  readonly timeoutMs?: number;
  /** Alias of `timeoutMs` (milliseconds, as in the `openai` client's own option). */
  readonly timeout?: number;
  /** Retries of failed requests (connection errors, 408/409/429/5xx), by the openai client. Default 1. */
  readonly maxRetries?: number;
  /** Sampling temperature (`temperature`, 0..2). Default: the server's. */
  readonly temperature?: number;
  /** Most tokens to generate (`max_tokens`, the field every OpenAI-compatible server reads). Default: the server's. */
  readonly maxTokens?: number;
  /** Most tokens to generate for OpenAI's newer models (`max_completion_tokens`). Default: the server's. */
  readonly maxCompletionTokens?: number;
  /**
   * `tool_choice`, sent when the request has tools: `"auto"`, `"none"`, `"required"`, or a tool
   * name to force that tool (`{ type: "function", function: { name } }`). Default: the server's (`auto`).
   */
  readonly toolChoice?: 'auto' | 'none' | 'required' | { readonly name: string };
  /** `parallel_tool_calls`, sent when the request has tools. Default: the server's (OpenAI: true). */
  readonly parallelToolCalls?: boolean;
  /**
   * More request body fields for this server (`top_p`, `seed`, `reasoning_effort`, vLLM's
   * `guided_json`…), sent as given. The fields the adapter owns (`model`, `messages`, `stream`,
   * `stream_options`, `tools`) cannot be set here (a TypeError at creation); the options above win
   * over the same field here.
   */
  readonly extraBody?: Readonly<Record<string, unknown>>;
  /** A ready client (overrides baseURL, apiKey, fetch, timeoutMs, maxRetries). */
  readonly client?: OpenAI;
}

/** Creates a {@link Model} on an OpenAI-compatible Chat Completions endpoint. */
export function openaiModel(options: OpenAIModelOptions): Model {
  checkOpenAIOptions(options);
  checkBaseUrl(options);
  const timeoutMs = options.timeoutMs ?? options.timeout ?? 60_000;
  const apiKey = options.apiKey ?? process.env['OPENAI_API_KEY'] ?? 'none';
  let made: Promise<OpenAI> | undefined;
  const client = (): Promise<OpenAI> =>
    (made ??=
      options.client !== undefined
        ? Promise.resolve(options.client)
        : loadSdk().then(
            (m) =>
              new m.OpenAI({
                apiKey,
                ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
                ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
                timeout: timeoutMs,
                maxRetries: options.maxRetries ?? 1,
                // The client would print a malformed chunk to the console; the ModelError says
                // it. OPENAI_LOG (the client's own switch) still turns its logging on.
                ...(process.env['OPENAI_LOG'] === undefined ? { logLevel: 'off' as const } : {}),
              }),
          ));
  const name = `openai:${options.model}`;
  // The key the client really sends ("none" is the placeholder for servers that need none).
  const key = options.client === undefined ? apiKey : options.client.apiKey;
  const credentials: readonly string[] = key === null || key === 'none' || key === '' ? [] : [key];
  return {
    name,
    stream: (request) => streamChat({ client, options, name, timeoutMs, request, credentials }),
    credentials: () => credentials,
  };
}

/** A base URL the client could not use, named by where it came from (a host's mistake). */
function checkBaseUrl(options: OpenAIModelOptions): void {
  if (options.client !== undefined) return;
  // Without baseURL the client reads OPENAI_BASE_URL (trimmed); '' means its default.
  const value = options.baseURL ?? process.env['OPENAI_BASE_URL']?.trim();
  const source = options.baseURL === undefined ? 'OPENAI_BASE_URL' : 'baseURL';
  const problem = value === undefined || value === '' ? undefined : baseUrlProblem(value, source);
  if (problem !== undefined) throw new TypeError(`openaiModel: ${problem}`);
  if (options.baseURL === undefined) warnIfMisnamedBaseUrl(process.env);
}

function toolChoice(
  choice: NonNullable<OpenAIModelOptions['toolChoice']>,
): ChatCompletionCreateParamsStreaming['tool_choice'] {
  return typeof choice === 'string'
    ? choice
    : { type: 'function', function: { name: choice.name } };
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

async function* streamChat(input: {
  client: () => Promise<OpenAI>;
  options: OpenAIModelOptions;
  name: string;
  timeoutMs: number;
  request: ModelRequest;
  credentials: readonly string[];
}): AsyncGenerator<ModelStreamPart> {
  const { options, name, timeoutMs, request, credentials } = input;
  const [client, errors] = await Promise.all([input.client(), loadSdk()]);
  // One controller for both the caller's interruption and our between-chunks deadline.
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = (): void => controller.abort();
  request.signal.addEventListener('abort', onAbort, { once: true });
  let idle: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    if (idle !== undefined) clearTimeout(idle);
    idle = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
  };
  // Set one by one, then laid over `extraBody` (ours win, as with spreads): a literal that starts
  // with a spread gets a hidden class per request once optimized (docs/performance-notes.md).
  const ours: ChatCompletionCreateParamsStreaming = {
    model: request.modelId ?? options.model,
    messages: request.messages.map(toOpenAIMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) {
    ours.tools = request.tools.map(toOpenAITool);
    if (options.parallelToolCalls !== undefined)
      ours.parallel_tool_calls = options.parallelToolCalls;
    if (options.toolChoice !== undefined) ours.tool_choice = toolChoice(options.toolChoice);
  }
  if (options.temperature !== undefined) ours.temperature = options.temperature;
  if (options.maxTokens !== undefined) ours.max_tokens = options.maxTokens;
  if (options.maxCompletionTokens !== undefined)
    ours.max_completion_tokens = options.maxCompletionTokens;
  const body: ChatCompletionCreateParamsStreaming =
    options.extraBody === undefined ? ours : Object.assign({}, options.extraBody, ours);
  // Keyed by a validated small index: the server's `index` never indexes an object or array.
  const calls = new Map<number, PartialCall>();
  let usage: ModelUsage | undefined;
  try {
    if (request.signal.aborted) throw abortError();
    arm();
    const { data: stream, response } = await client.chat.completions
      .create(body, { signal: controller.signal })
      .withResponse();
    arm();
    if (isJsonAnswer(response.headers.get('content-type'))) {
      // A server that ignores `stream: true`: its one JSON answer, never an empty stream.
      const parts = completionParts(await response.json(), name, MAX_STREAMED_CALLS);
      if (timedOut) throw new Error('stream stalled');
      yield* parts;
      return;
    }
    for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
      arm();
      // On its own last chunk (OpenAI) or on the finishing one (some compatible servers).
      if (chunk.usage) usage = usageOf(chunk.usage);
      for (const choice of chunk.choices) {
        if (choice.index !== 0) continue;
        const delta = choice.delta;
        if (typeof delta.content === 'string' && delta.content !== '')
          yield { type: 'text-delta', text: delta.content };
        for (const tc of delta.tool_calls ?? []) {
          const index = checkedCallIndex(tc.index, name);
          let call = calls.get(index);
          if (call === undefined) {
            if (calls.size >= MAX_STREAMED_CALLS) throw tooManyCalls(name);
            call = { id: '', name: '', arguments: '' };
            calls.set(index, call);
          }
          if (tc.id) call.id = tc.id;
          if (tc.function?.name) call.name += tc.function.name;
          if (tc.function?.arguments) call.arguments += tc.function.arguments;
        }
      }
    }
    // The openai stream ends quietly (no throw) when its signal aborts mid-body.
    if (request.signal.aborted) throw abortError();
    if (timedOut) throw new Error('stream stalled');
  } catch (err) {
    if (request.signal.aborted) throw abortError();
    throw scrubModelError(
      toModelError(err, { model: name, baseURL: client.baseURL, timedOut, timeoutMs, errors }),
      credentials,
    );
  } finally {
    if (idle !== undefined) clearTimeout(idle);
    request.signal.removeEventListener('abort', onAbort);
  }
  for (const index of [...calls.keys()].sort((a, b) => a - b)) {
    const call = calls.get(index) as PartialCall;
    yield { type: 'tool-call', call: { id: call.id, name: call.name, arguments: call.arguments } };
  }
  yield usage === undefined ? { type: 'finish' } : { type: 'finish', usage };
}

/**
 * Largest tool-call `index` (exclusive) and largest number of calls one streamed answer may hold.
 * Far above what any model emits in one answer; the session's `limits.maxCallsPerAnswer` caps what
 * actually runs.
 */
export const MAX_STREAMED_CALLS = 128;

/** The streamed `index` as a small non-negative integer, or a `bad_response` model error. */
function checkedCallIndex(index: unknown, model: string): number {
  if (
    typeof index === 'number' &&
    Number.isInteger(index) &&
    index >= 0 &&
    index < MAX_STREAMED_CALLS
  )
    return index;
  const shown = typeof index === 'string' ? JSON.stringify(index.slice(0, 40)) : String(index);
  return badResponse(
    model,
    `model ${model} streamed a tool call with index ${shown}; expected an integer from 0 to ${MAX_STREAMED_CALLS - 1}`,
  );
}

function tooManyCalls(model: string): ModelError {
  return new ModelError({
    code: 'bad_response',
    model,
    message: `model ${model} streamed more than ${MAX_STREAMED_CALLS} tool calls in one answer`,
  });
}

function badResponse(model: string, message: string): never {
  throw new ModelError({ code: 'bad_response', model, message });
}
