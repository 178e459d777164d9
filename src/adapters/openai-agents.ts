/**
 * `@openai/agents`: function tools for an `Agent` (the same objects serve a `RealtimeAgent`) whose
 * `execute` runs each call through a switchboard session (docs/adapters.md). A tool error is
 * thrown and the tools' `errorFunction` returns its message, so the model reads the same
 * `{"error":{"code",…}}` a switchboard model would, the run goes on, and the SDK marks the tool
 * span as failed (its convention for a non-fatal tool error).
 */
import { tool, type FunctionTool } from '@openai/agents';
import { errorOutcome } from '../call-runner/runner.js';
import type { Session } from '../session/types.js';
import {
  AdapterCore,
  checkAdapterOptions,
  SwitchboardToolError,
  type AdapterOptions,
  type SpokenLine,
} from './core.js';

/** Options of {@link createAgentsTools}. */
export interface AgentsToolsOptions extends AdapterOptions {
  /**
   * Each spoken line of a call as it happens (a context tool's message, an action's `say`, a
   * bridge phrase while a slow tool runs): the host decides where it goes.
   */
  readonly onSay?: (line: SpokenLine) => void;
}

/** A switchboard tool set as `@openai/agents` function tools, over one switchboard session. */
export interface AgentsTools<Context = unknown> {
  /** Pass as `tools` to an `Agent` or (with `Context` = `RealtimeContextData`) a `RealtimeAgent`. */
  readonly tools: AgentsFunctionTool<Context>[];
  /** The switchboard session the calls run in (language, variables, traces). */
  readonly session: Session;
  /** Ends the session: its calls in flight end as a session's do. */
  close(): Promise<void>;
}

/**
 * Creates the function tools of a tool set: the tools a session's model is shown at start (names,
 * descriptions, input schemas without static parameters; `strict: false`, as a definition's
 * schema need not meet strict mode's rules). Throws as `createSession` does for a host
 * configuration mistake.
 */
export function createAgentsTools<Context = unknown>(
  options: AgentsToolsOptions,
): AgentsTools<Context> {
  const { onSay, ...adapterOptions } = checkAdapterOptions(options, 'createAgentsTools');
  const core = new AdapterCore(adapterOptions, {
    caller: 'openai-agents',
    creator: 'createAgentsTools',
    calls: "the Agents SDK's model",
  });
  const tools = core.shown.map(({ function: fn }): AgentsFunctionTool<Context> =>
    tool<AgentsSchema, Context, string>({
      name: fn.name,
      description: fn.description ?? '',
      // Non-strict: the SDK passes the schema on as it is (its type wants literal fields).
      parameters: { ...fn.parameters, type: 'object' } as unknown as AgentsSchema,
      strict: false,
      execute: async (input, _context, details) => {
        const outcome = await core.call(fn.name, input, details?.signal, onSay);
        if (outcome.isError) throw new SwitchboardToolError(outcome);
        return outcome.output;
      },
      errorFunction: (_context, error) =>
        error instanceof SwitchboardToolError
          ? error.message
          : // The SDK's own failure before `execute`: the model's arguments are not JSON.
            errorOutcome('invalid_arguments', messageOf(error)).output,
    }),
  );
  return {
    tools,
    get session() {
      return core.session;
    },
    close: () => core.close(),
  };
}

/**
 * The non-strict JSON-schema form of `tool`'s parameters (the SDK's `JsonObjectSchemaNonStrict`,
 * which its main entry does not export); the schema passed is a definition's, as it is.
 */
export interface AgentsSchema {
  readonly type: 'object';
  readonly properties: Record<string, never>;
  readonly required: never[];
  readonly additionalProperties: true;
}

/**
 * A function tool of {@link createAgentsTools}. `Context` is the run context's type: `unknown`
 * for an `Agent`, `RealtimeContextData` for a `RealtimeAgent`.
 */
export type AgentsFunctionTool<Context = unknown> = FunctionTool<Context, AgentsSchema, string>;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
