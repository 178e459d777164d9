/**
 * Vercel `ai` (v5): a `ToolSet` for `generateText`/`streamText` whose `execute` runs each call
 * through a switchboard session (docs/adapters.md). A tool error is thrown: `ai` turns a thrown
 * error into a `tool-error` part and sends its message to the model as `error-text`, so the
 * model reads the same `{"error":{"code",…}}` a switchboard model would.
 */
import { jsonSchema, tool, type ToolSet as AiToolSet } from 'ai';
import type { Session } from '../session/types.js';
import {
  AdapterCore,
  checkAdapterOptions,
  SwitchboardToolError,
  type AdapterOptions,
  type SpokenLine,
} from './core.js';

/** Options of {@link createAiTools}. */
export interface AiToolsOptions extends AdapterOptions {
  /**
   * Each spoken line of a call as it happens (a context tool's message, an action's `say`, a
   * bridge phrase while a slow tool runs): `ai` has no speech, so the host decides.
   */
  readonly onSay?: (line: SpokenLine) => void;
}

/** A switchboard tool set as `ai` tools, over one switchboard session. */
export interface AiTools {
  /** Pass as `tools` to `generateText`/`streamText`. */
  readonly tools: AiToolSet;
  /** The switchboard session the calls run in (language, variables, traces). */
  readonly session: Session;
  /** Ends the session: its calls in flight end as a session's do. */
  close(): Promise<void>;
}

/**
 * Creates the `ai` tools of a tool set: the tools a session's model is shown at start (names,
 * descriptions, input schemas without static parameters). Throws as `createSession` does for a
 * host configuration mistake.
 */
export function createAiTools(options: AiToolsOptions): AiTools {
  const { onSay, ...adapterOptions } = checkAdapterOptions(options, 'createAiTools');
  const core = new AdapterCore(adapterOptions, {
    caller: 'ai',
    creator: 'createAiTools',
    calls: "`ai`'s model",
  });
  // fromEntries defines own properties: a tool named `__proto__` stays a tool.
  const tools: AiToolSet = Object.fromEntries(
    core.shown.map(({ function: fn }) => [
      fn.name,
      tool({
        ...(fn.description === undefined ? {} : { description: fn.description }),
        inputSchema: jsonSchema<Record<string, unknown>>(fn.parameters),
        execute: async (input, { abortSignal }) => {
          const outcome = await core.call(fn.name, input, abortSignal, onSay);
          if (outcome.isError) throw new SwitchboardToolError(outcome);
          return outcome.output;
        },
      }),
    ]),
  );
  return {
    tools,
    get session() {
      return core.session;
    },
    close: () => core.close(),
  };
}
