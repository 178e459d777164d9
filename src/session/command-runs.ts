/**
 * The records of one `command` tool call's runs (docs/handlers.md, "Command"): each run
 * becomes a `command` event and an entry of the trace's `commands`, and, when the call has a
 * recording span, a child span of its own.
 */
import type { ToolDefinition } from '../definition/types.js';
import type { CommandRecord } from '../handlers/command/command-config.js';
import type { HandlerContext, HandlerSession } from '../handlers/types.js';
import type { ToolCallTrace } from '../observability/tool-call-trace.js';
import type { TurnEvent } from './types.js';

/** The runs of one call, and the handler context that records them. */
export interface CommandRuns {
  readonly records: CommandRecord[];
  context(tool: ToolDefinition, session: HandlerSession, signal: AbortSignal): HandlerContext;
}

/** Records the runs of call `callId` of `tool`, emitting an event for each. */
export function commandRuns(
  callId: string,
  tool: string,
  emit: (event: TurnEvent) => void,
  trace: ToolCallTrace | undefined,
): CommandRuns {
  const records: CommandRecord[] = [];
  const onCommand = (command: CommandRecord): void => {
    records.push(command);
    emit({ type: 'command', callId, tool, command });
  };
  const traceCommand =
    trace?.recording === true ? (record: CommandRecord) => trace.command(record) : undefined;
  return {
    records,
    context: (definition, session, signal) =>
      traceCommand === undefined
        ? { tool: definition, callId, session, signal, onCommand }
        : { tool: definition, callId, session, signal, onCommand, traceCommand },
  };
}
