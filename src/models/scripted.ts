/**
 * ScriptedModel — the test double of the product (`switchboard/testing`). It answers each model
 * call with the next step of a script shaped like a fixture turn's `model` list, records the
 * requests it saw when asked (`record: true`), and fails loudly when called beyond its script or
 * left with unused steps.
 */
import { checkScript } from './check-script.js';
import { ModelError, abortError } from './errors.js';
import {
  NO_USAGE,
  type Model,
  type ModelRequest,
  type ModelStreamPart,
  type ModelToolCall,
  type ModelUsage,
} from './types.js';

/** One scripted tool call. `args` as an object is JSON-encoded; a string is sent verbatim. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly args?: Readonly<Record<string, unknown>> | string;
  /** Default `call_<step>_<index>` (1-based step, 0-based index). */
  readonly id?: string;
}

/** One answer of the script. */
export interface ScriptedStep {
  /** Text streamed before any tool call; an array streams each element as its own delta. */
  readonly text?: string | readonly string[];
  readonly tool_calls?: readonly ScriptedToolCall[];
  /** Wait this long before answering (and between text chunks). Honours abort. Default 0. */
  readonly delayMs?: number;
  /** Make this call fail with a {@link ModelError} carrying this message. */
  readonly error?: string;
  /** Usage reported in the finish part. Default `{ inputTokens: 0, outputTokens: 0 }`. */
  readonly usage?: ModelUsage;
}

/** A request as the scripted model saw it (copied, so later history changes do not show). */
export interface ScriptedCall {
  readonly messages: ModelRequest['messages'];
  readonly tools: ModelRequest['tools'];
  /** The step index (0-based) that answered, or -1 when the script was exhausted. */
  readonly step: number;
  /** The request's `modelId`, when the session asked for one. */
  readonly modelId?: string;
}

/** Options of {@link ScriptedModel}. */
export interface ScriptedModelOptions {
  /** Default `scripted`. */
  readonly name?: string;
  /**
   * Keep a copy of every request in `calls`. Default false: a copy per call grows with the
   * history (31 MB after 1,000 turns of one session), so only tests that inspect requests ask.
   */
  readonly record?: boolean;
}

/**
 * A model that replays a script. Calls beyond the script throw a {@link ModelError} (`script`); a
 * step or call of the wrong shape (an unknown field, a call without a name) throws a TypeError here.
 */
export class ScriptedModel implements Model {
  readonly name: string;
  readonly #steps: readonly ScriptedStep[];
  readonly #calls: ScriptedCall[] | undefined;
  #next = 0;
  #callCount = 0;
  #overCalls = 0;

  constructor(steps: readonly ScriptedStep[], options: ScriptedModelOptions = {}) {
    this.name = options.name ?? 'scripted';
    checkScript(steps, this.name);
    this.#steps = steps;
    this.#calls = options.record === true ? [] : undefined;
  }

  /**
   * Every request received, in order (copied: later history changes do not show). Only with
   * `record: true`; otherwise reading it throws, so a test never inspects an empty list by mistake.
   */
  get calls(): readonly ScriptedCall[] {
    if (this.#calls === undefined)
      throw new TypeError(
        `${this.name}: create the ScriptedModel with { record: true } to read calls`,
      );
    return this.#calls;
  }

  /** How many times the model was called (recorded or not). */
  get callCount(): number {
    return this.#callCount;
  }

  /** How many calls came after the script was used up. */
  get overCalls(): number {
    return this.#overCalls;
  }

  /** Steps not yet used. */
  get remaining(): number {
    return this.#steps.length - this.#next;
  }

  /** Throws if any step was never used. */
  assertComplete(): void {
    if (this.remaining > 0) {
      throw new Error(
        `${this.name}: ${this.remaining} scripted step(s) never used (used ${this.#next} of ${this.#steps.length})`,
      );
    }
  }

  stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    const index = this.#next;
    const step = this.#steps[index];
    this.#callCount++;
    this.#calls?.push({
      messages: request.messages.slice(),
      tools: request.tools.slice(),
      step: step === undefined ? -1 : index,
      ...(request.modelId === undefined ? {} : { modelId: request.modelId }),
    });
    if (step === undefined) {
      this.#overCalls++;
      const err = new ModelError({
        code: 'script',
        model: this.name,
        message: `${this.name}: model called ${index + 1} time(s) but the script has only ${this.#steps.length} step(s)`,
      });
      return failing(err);
    }
    this.#next++;
    // A step without delays is replayed by a plain iterator: an async generator per call costs a
    // generator object, a request queue and an extra promise per part (docs/benchmarks.md).
    return (step.delayMs ?? 0) > 0
      ? play(step, index, request.signal, this.name)
      : new ImmediateStream(step, index, request.signal, this.name);
  }
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The parts of a step with no delay, as {@link play} yields them (the same checks in the same
 * order: abort and `error` before the first part, abort before each text chunk), each from an
 * already-settled promise.
 */
class ImmediateStream
  implements AsyncIterableIterator<ModelStreamPart>, AsyncIterator<ModelStreamPart>
{
  readonly #step: ScriptedStep;
  readonly #index: number;
  readonly #signal: AbortSignal;
  readonly #name: string;
  /** -1 before the first part; then text chunks, then tool calls, then the finish part. */
  #pos = -1;
  #done = false;

  constructor(step: ScriptedStep, index: number, signal: AbortSignal, name: string) {
    this.#step = step;
    this.#index = index;
    this.#signal = signal;
    this.#name = name;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ModelStreamPart>> {
    if (this.#done) return Promise.resolve(DONE);
    try {
      const part = this.#part();
      if (part === undefined) {
        this.#done = true;
        return Promise.resolve(DONE);
      }
      return Promise.resolve({ done: false, value: part });
    } catch (err) {
      this.#done = true;
      return Promise.reject(err);
    }
  }

  return(): Promise<IteratorResult<ModelStreamPart>> {
    this.#done = true;
    return Promise.resolve(DONE);
  }

  #part(): ModelStreamPart | undefined {
    const step = this.#step;
    if (this.#pos === -1) {
      this.#pos = 0;
      if (this.#signal.aborted) throw abortError();
      if (step.error !== undefined) throw stepError(step.error, this.#name);
    }
    const text = step.text;
    const chunks = text === undefined ? 0 : typeof text === 'string' ? 1 : text.length;
    while (this.#pos < chunks) {
      const i = this.#pos++;
      if (this.#signal.aborted) throw abortError();
      const chunk = typeof text === 'string' ? text : text?.[i];
      if (chunk !== undefined && chunk !== '') return { type: 'text-delta', text: chunk };
    }
    const calls = step.tool_calls ?? [];
    while (this.#pos < chunks + calls.length) {
      const i = this.#pos++ - chunks;
      const c = calls[i];
      if (c !== undefined) return toolCallPart(c, this.#index, i);
    }
    if (this.#pos === chunks + calls.length) {
      this.#pos++;
      return finishPart(step);
    }
    return undefined;
  }
}

async function* failing(err: Error): AsyncGenerator<ModelStreamPart> {
  throw err;
}

async function* play(
  step: ScriptedStep,
  index: number,
  signal: AbortSignal,
  name: string,
): AsyncGenerator<ModelStreamPart> {
  const delay = step.delayMs ?? 0;
  if (delay > 0) await sleep(delay, signal);
  if (signal.aborted) throw abortError();
  if (step.error !== undefined) throw stepError(step.error, name);
  const chunks =
    step.text === undefined ? [] : typeof step.text === 'string' ? [step.text] : step.text;
  for (let i = 0; i < chunks.length; i++) {
    if (i > 0 && delay > 0) await sleep(delay, signal);
    if (signal.aborted) throw abortError();
    const text = chunks[i];
    if (text !== undefined && text !== '') yield { type: 'text-delta', text };
  }
  const calls = step.tool_calls ?? [];
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i];
    if (c !== undefined) yield toolCallPart(c, index, i);
  }
  yield finishPart(step);
}

/** The failure a step with `error` answers with. */
function stepError(message: string, model: string): ModelError {
  return new ModelError({ code: 'http_status', status: 500, model, message });
}

/** Call `i` of step `index` (0-based) as a stream part; ids default to `call_<step>_<i>`. */
function toolCallPart(c: ScriptedToolCall, index: number, i: number): ModelStreamPart {
  const call: ModelToolCall = {
    id: c.id ?? `call_${index + 1}_${i}`,
    name: c.name,
    arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}),
  };
  return { type: 'tool-call', call };
}

function finishPart(step: ScriptedStep): ModelStreamPart {
  return { type: 'finish', usage: step.usage ?? NO_USAGE };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
