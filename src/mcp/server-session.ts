/**
 * One MCP session's switchboard session (docs/mcp.md): a {@link ToolCallRunner} whose calls are
 * the client's `tools/call`s, its listing in MCP's shape and its outcomes as MCP results.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  MAX_CALL_HISTORY,
  ToolCallRunner,
  type CallOutcome,
  type ToolSource,
} from '../call-runner/runner.js';
import {
  callSessionOptions,
  type CallSessionOptions,
  type ServedTools,
} from '../call-runner/served-tools.js';
import type { Session } from '../session/types.js';
import { toMcpTools } from './server-tools.js';

/** History kept per MCP session, in messages (three per call); see {@link MAX_CALL_HISTORY}. */
export const MAX_MCP_HISTORY = MAX_CALL_HISTORY;

/** The session options an MCP server passes on (what steers a model's turn is not taken). */
export type McpSessionOptions = CallSessionOptions;
/** The session options of `createMcpServer`, what has no effect there warned about and dropped. */
export function mcpSessionOptions(options: McpSessionOptions): McpSessionOptions {
  return callSessionOptions(options, { caller: 'createMcpServer', calls: 'the MCP client' });
}
export type { ServedTools, ToolSource };

/** One MCP session: its switchboard session, its calls in order, its tool listing. */
export class McpToolSession {
  readonly #runner: ToolCallRunner;
  readonly #source: ToolSource;

  constructor(source: ToolSource) {
    this.#source = source;
    this.#runner = new ToolCallRunner({
      source,
      caller: 'mcp',
      endedMessage: 'this MCP session has ended (a tool ended it); open a new MCP session',
    });
  }

  /** The switchboard session now (it is replaced when the history is trimmed or tools change). */
  get session(): Session {
    return this.#runner.session;
  }

  /** `tools/list`: what the session's model would be shown now. */
  async listTools(): Promise<Tool[]> {
    const tools = await this.#runner.listTools();
    return toMcpTools(tools, this.#source.served.tools.tools);
  }

  /**
   * `tools/call`: never rejects; every failure is a result with `isError`. `signal` (the client's
   * `notifications/cancelled`) interrupts the call's turn: a call of side-effect class `none` stops
   * at once; others run to completion, as on a caller's barge-in. `listChanged` is called when the
   * call changed what the model is shown (a handoff, a workflow step).
   */
  async call(
    name: string,
    args: Readonly<Record<string, unknown>> | undefined,
    signal: AbortSignal,
    listChanged: () => void,
  ): Promise<CallToolResult> {
    return mcpResultOf(await this.#runner.call(name, args, { signal, listChanged }));
  }

  /** Ends the session (the MCP session closed): its calls in flight end as a session's do. */
  close(): Promise<void> {
    return this.#runner.close();
  }
}

/** An outcome as an MCP result: the tool message, then what the tool said, as text. */
function mcpResultOf(outcome: CallOutcome): CallToolResult {
  const content: CallToolResult['content'] = [
    { type: 'text', text: outcome.output },
    ...outcome.said.map((text) => ({ type: 'text' as const, text })),
  ];
  return outcome.isError ? { content, isError: true } : { content };
}
