/**
 * LiveKit Agents (`@livekit/agents` 1.x): `llm.tool` entries for a `voice.Agent` whose `execute`
 * runs each call through a switchboard session (docs/adapters.md). What a tool says (a context
 * tool's message, an action's `say`) and the bridge phrases spoken while a slow tool runs go to
 * the LiveKit session's `say` as they happen. A tool error is thrown as `llm.ToolError`, the one
 * error whose message LiveKit sends to the model (any other becomes "An internal error
 * occurred"), so the model reads the same `{"error":{"code",…}}` a switchboard model would.
 */
import { llm, type voice } from '@livekit/agents';
import type { Session } from '../session/types.js';
import { AdapterCore, checkAdapterOptions, type AdapterOptions, type SpokenLine } from './core.js';

/** A JSON Schema as `llm.tool` takes it (the package's main entry does not export the name). */
type LiveKitSchema = NonNullable<Parameters<typeof llm.tool>[0]['parameters']>;

/** Options of {@link createLiveKitTools}. */
export interface LiveKitToolsOptions extends AdapterOptions {
  /**
   * Where a spoken line goes. Default: the calling LiveKit session's `say(text)` (added to its
   * chat context, interruptible as LiveKit's default).
   */
  readonly onSay?: (line: SpokenLine, session: voice.AgentSession) => void;
}

/** A switchboard tool set as LiveKit function tools, over one switchboard session. */
export interface LiveKitTools {
  /** Pass as `tools` to a `voice.Agent`. */
  readonly tools: llm.FunctionTool[];
  /** The switchboard session the calls run in (language, variables, traces). */
  readonly session: Session;
  /** Ends the session: its calls in flight end as a session's do. */
  close(): Promise<void>;
}

/**
 * Creates the LiveKit tools of a tool set: the tools a session's model is shown at start (names,
 * descriptions, JSON input schemas without static parameters). Throws as `createSession` does for
 * a host configuration mistake. One per LiveKit session (a call's state lives in it).
 */
export function createLiveKitTools(options: LiveKitToolsOptions): LiveKitTools {
  const { onSay, ...adapterOptions } = checkAdapterOptions(options, 'createLiveKitTools');
  const core = new AdapterCore(adapterOptions, {
    caller: 'livekit',
    creator: 'createLiveKitTools',
    calls: "the LiveKit agent's LLM",
  });
  const speak =
    onSay ?? ((line: SpokenLine, session: voice.AgentSession) => session.say(line.text));
  const tools = core.shown.map(({ function: fn }) =>
    llm.tool({
      name: fn.name,
      description: fn.description ?? '',
      // A JSON Schema: LiveKit passes it to the model and the parsed arguments on unchecked.
      parameters: fn.parameters as LiveKitSchema,
      execute: async (args: unknown, { ctx, abortSignal }) => {
        const outcome = await core.call(fn.name, args, abortSignal, (line) =>
          speak(line, ctx.session),
        );
        if (outcome.isError) throw new llm.ToolError(outcome.output);
        return valueOf(outcome.output);
      },
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
 * LiveKit serialises a tool's return value with JSON.stringify: a JSON tool message goes back as
 * its value (so the model gets the JSON, not a quoted string of it), other text as it is.
 */
function valueOf(output: string): unknown {
  try {
    return JSON.parse(output) as unknown;
  } catch {
    return output;
  }
}
