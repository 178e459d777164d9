/**
 * What every framework adapter shares (docs/adapters.md): one switchboard session per adapter
 * instance, driven by a {@link ToolCallRunner}, the tools its model would be shown (static and
 * hidden parameters left out), and a tool error as an Error carrying the stable code.
 */
import { ToolCallRunner, errorOutcome, type CallOutcome } from '../call-runner/runner.js';
import {
  callSessionOptions,
  checkedServedTools,
  type CallSessionOptions,
  type ServedTools,
} from '../call-runner/served-tools.js';
import type { ToolSet } from '../definition/types.js';
import type { ToolErrorCode } from '../errors.js';
import { isFunction, isToolSet } from '../option-checks.js';
import { checkOwnOptions } from '../session/own-options.js';
import type { ChatTool } from '../models/types.js';
import type { Session, SessionEvent } from '../session/types.js';

/** Options every adapter takes: the tools, and what a session takes besides its model. */
export interface AdapterOptions extends CallSessionOptions {
  /** The tools (from `loadTools`). Action tools without a handler in `actions` are left out. */
  readonly tools: ToolSet;
}

/**
 * An adapter's own options (`tools`, `onSay`), checked at its creation: a tool set still a
 * Promise was a TypeError deep inside, an `onSay` that is not a function a TypeError at the first
 * spoken line. The rest are session options, checked by createSession (a DefinitionError too).
 */
const OWN = { tools: isToolSet, onSay: isFunction };

/**
 * Throws a DefinitionError naming each wrong own option of `caller` (e.g. `createAiTools`);
 * returns the options without keys neither the adapter nor a session knows (warned about).
 */
export function checkAdapterOptions<T extends object>(options: T, caller: string): T {
  return checkOwnOptions(options, { own: OWN, required: ['tools'], caller });
}

/** A spoken line of a call: a tool's `say` (context message, action `say`) or a bridge phrase. */
export interface SpokenLine {
  readonly text: string;
  readonly source: 'tool' | 'bridge' | 'pre-tool' | 'error';
  /** The tool it belongs to. */
  readonly tool?: string;
}

/**
 * A switchboard tool error, thrown by an adapter's `execute` where the framework sends a thrown
 * error's message to its model: the message is exactly the tool message a switchboard model
 * would get (`{"error":{"code":…,"message":…}}`).
 */
export class SwitchboardToolError extends Error {
  override readonly name = 'SwitchboardToolError';
  /** The stable code (`invalid_arguments`, `http_status`, `timeout`, …). */
  readonly code: ToolErrorCode | undefined;
  /** What the tool said before failing. */
  readonly said: readonly string[];

  // What it reads of a call's outcome, written out: the runner's CallOutcome is not public, and
  // a test of a host's error handling may build one of these errors itself.
  constructor(outcome: {
    readonly output: string;
    readonly code?: ToolErrorCode | undefined;
    readonly said: readonly string[];
  }) {
    super(outcome.output);
    this.code = outcome.code;
    this.said = outcome.said;
  }
}

/** How an adapter is named: in traces, in its warnings, and what makes its calls. */
export interface AdapterNames {
  /** The calling model's name in traces and spans (`ai`, …). */
  readonly caller: string;
  /** The function that created it (`createAiTools`, …). */
  readonly creator: string;
  /** What makes the calls (`ai`'s model, …), for the `ignored_option` warnings. */
  readonly calls: string;
}

/** The running part of an adapter: its session and the tools shown at start. */
export class AdapterCore {
  readonly #runner: ToolCallRunner;
  readonly served: ServedTools;
  /** The tools the session's model would be shown at start, in order. */
  readonly shown: readonly ChatTool[];

  constructor(options: AdapterOptions, names: AdapterNames) {
    const { tools, ...sessionOptions } = options;
    const driver = { caller: names.creator, calls: names.calls };
    const served = checkedServedTools(tools, callSessionOptions(sessionOptions, driver));
    this.served = served;
    this.#runner = new ToolCallRunner({ source: { served }, caller: names.caller });
    this.shown = this.#runner.toolsNow();
  }

  get session(): Session {
    return this.#runner.session;
  }

  /** Runs a call through the session; spoken lines go to `onSay` as they happen. */
  call(
    name: string,
    args: unknown,
    signal: AbortSignal | undefined,
    onSay: ((line: SpokenLine) => void) | undefined,
  ): Promise<CallOutcome> {
    if (args !== undefined && args !== null && !isRecord(args))
      return Promise.resolve(errorOutcome('invalid_arguments', 'the arguments are not an object'));
    const onEvent =
      onSay === undefined
        ? undefined
        : (event: SessionEvent): void => {
            if (event.type !== 'say') return;
            onSay({
              text: event.text,
              source: event.source,
              ...(event.tool === undefined ? {} : { tool: event.tool }),
            });
          };
    return this.#runner.call(name, args ?? undefined, {
      ...(signal === undefined ? {} : { signal }),
      ...(onEvent === undefined ? {} : { onEvent }),
    });
  }

  close(): Promise<void> {
    return this.#runner.close();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
