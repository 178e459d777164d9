/**
 * warmUp: runs the engine's own turn path in this process before the first caller does, so the
 * first turns callers hear do not run on cold code (docs/session.md, "The first turn: warmUp").
 *
 * In a fresh process a session's first turn is slow not because of per-session work (validators
 * and `defaults` are compiled by `loadTools`, templates parsed once per process) but because the
 * turn's code has not run yet: V8 interprets it, then optimizes it after thousands of calls. In a
 * server every session's first turn falls in those first seconds. `warmUp` runs synthetic turns
 * through the real code — createSession and resumeSession on an in-memory store, the turn loop,
 * the call pipeline (parse, validate, request, exchange, response, history, events, save) — against
 * an in-process answer instead of the network. Nothing of the host's is called: its tools,
 * actions, models, hooks, store and the shared connection pools are not used, no socket is opened
 * and no span is recorded.
 */
import type { Dispatcher } from 'undici';
import { loadTools } from '../definition/load.js';
import { otel, undici } from '../lazy-deps.js';
import type { ToolSet } from '../definition/types.js';
import type { ScriptedStep } from '../models/scripted.js';
import { globalTracer } from '../observability/span-helpers.js';
import { createSession, resumeSession } from './create-session.js';
import { InMemorySessionStore } from './store.js';
import type { SessionOptions } from './types.js';

/** Options of {@link warmUp}. */
export interface WarmUpOptions {
  /** Synthetic turns to run (each calls one endpoint tool). Default 2,000; at most 100,000. */
  readonly turns?: number;
}

/** What {@link warmUp} did. */
export interface WarmUpReport {
  /** Synthetic turns run. */
  readonly turns: number;
  /** Wall time it took, ms. */
  readonly ms: number;
}

/** Default turns: the turn's code compiled and partly optimized (docs/benchmarks.md, turn 1). */
export const DEFAULT_WARM_UP_TURNS = 2_000;
const MAX_WARM_UP_TURNS = 100_000;
/** Sessions run side by side, and turns per session (then it is closed and a new one made). */
const CONCURRENT_SESSIONS = 20;
const TURNS_PER_SESSION = 4;

/** The origin the synthetic tools name: `.invalid` never resolves, and nothing dials it anyway. */
const ORIGIN = 'http://warm-up.invalid';

/** A `post` tool (JSON body) and a `get` tool (query string): the two request shapes. */
function definitions(): object[] {
  const tool = (name: string, method: 'post' | 'get'): object => ({
    type: 'endpoint',
    tool: {
      type: 'function',
      function: {
        name,
        description: `Warm-up ${method}`,
        parameters: {
          type: 'object',
          properties: { ref: { type: 'string' }, count: { type: 'integer' } },
          required: ['ref'],
          additionalProperties: false,
        },
      },
    },
    endpoint: {
      url: `${ORIGIN}/${name}`,
      method,
      argument_location: method === 'post' ? 'body' : 'query',
      timeout: 30,
    },
  });
  return [tool('warm_post', 'post'), tool('warm_get', 'get')];
}

const BODY = Buffer.from('{"ok":true,"id":"w-1","items":[1,2,3]}');
const HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'application/json',
  'content-length': String(BODY.length),
});

/** A controller for the in-process answer: nothing to pause or abort. */
class Controller implements Dispatcher.DispatchController {
  aborted = false;
  paused = false;
  reason: Error | null = null;
  abort(reason: Error): void {
    this.aborted = true;
    this.reason = reason;
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
}

/**
 * A dispatcher that answers every request in process, on a later tick as a socket would: 200 with
 * a small JSON body. Only the new handler API is used, as the engine's exchange does. Made when
 * warmUp runs (undici's class is loaded on first use, not when the package is imported).
 */
function inProcessDispatcher(): Dispatcher {
  class InProcessDispatcher extends undici().Dispatcher {
    override dispatch(
      _options: Dispatcher.DispatchOptions,
      handler: Dispatcher.DispatchHandler,
    ): boolean {
      setImmediate(() => {
        const c = new Controller();
        try {
          handler.onRequestStart?.(c, {});
          if (c.aborted) return;
          handler.onResponseStart?.(c, 200, HEADERS, 'OK');
          if (c.aborted) return;
          handler.onResponseData?.(c, BODY);
          if (c.aborted) return;
          handler.onResponseEnd?.(c, {});
        } catch (err) {
          handler.onResponseError?.(c, err as Error);
        }
      });
      return true;
    }
    override close(): Promise<void> {
      return Promise.resolve();
    }
    override destroy(): Promise<void> {
      return Promise.resolve();
    }
  }
  return new InProcessDispatcher();
}

function script(turns: number): ScriptedStep[] {
  const steps: ScriptedStep[] = [];
  for (let t = 0; t < turns; t++) {
    const name = t % 2 === 0 ? 'warm_post' : 'warm_get';
    steps.push({ tool_calls: [{ name, args: { ref: `r${t}`, count: t } }] });
    steps.push({ text: 'Done.' });
  }
  return steps;
}

let tools: Promise<ToolSet> | undefined;

/**
 * Runs `turns` synthetic turns (see the module comment). Call it once at start-up, after loading
 * the tools and before taking traffic. Resolves with what it did; rejects with a TypeError for a
 * bad `turns`, and rejects if a synthetic turn fails (an engine bug, never the host's).
 */
export async function warmUp(options: WarmUpOptions = {}): Promise<WarmUpReport> {
  const turns = options.turns ?? DEFAULT_WARM_UP_TURNS;
  if (!Number.isInteger(turns) || turns < 0 || turns > MAX_WARM_UP_TURNS)
    throw new TypeError(
      `warmUp: turns must be a whole number from 0 to ${MAX_WARM_UP_TURNS}, got ${String(turns)}`,
    );
  const started = performance.now();
  // Loaded here, not at import: a bot that never warms up does not load the scripted model.
  const { ScriptedModel } = await import('../models/scripted.js');
  const set = await (tools ??= loadTools(definitions()));
  const store = new InMemorySessionStore();
  const dispatcher = inProcessDispatcher();
  // A host's registered tracer provider must not see synthetic turns: a tracer of no provider.
  const tracing =
    globalTracer() === undefined
      ? undefined
      : { tracer: new (otel().ProxyTracerProvider)().getTracer('switchboard-warm-up') };
  const steps = script(TURNS_PER_SESSION);
  let left = turns;
  let n = 0;
  const worker = async (): Promise<void> => {
    while (left > 0) {
      const count = Math.min(TURNS_PER_SESSION, left);
      left -= count;
      const id = `warm-up-${++n}`;
      const opts: { -readonly [K in keyof SessionOptions]: SessionOptions[K] } = {
        tools: set,
        model: new ScriptedModel(steps.slice(0, 2 * count)),
        store,
        dispatcher,
        id,
      };
      if (tracing !== undefined) opts.tracing = tracing;
      // As a host opens a session it may have stored: looked up first, then made.
      const session = (await resumeSession(id, opts)) ?? createSession(opts);
      for (let t = 0; t < count; t++) {
        const result = await session.run('warm up');
        const trace = result.traces[0];
        if (trace === undefined || trace.isError === true)
          throw new Error(`warmUp: a synthetic turn failed (${String(trace?.errorCode)})`);
      }
      await session.close();
      await store.delete(id);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_SESSIONS }, worker));
  return { turns, ms: performance.now() - started };
}
