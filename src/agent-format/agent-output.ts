/**
 * The minimal agent output format that other runners validate against (docs/session.md): `{ content,
 * response_time_secs, traces: [{ tool, args?, output, duration_secs }] }`. A trace's `output` is
 * always text — "the tool result serialized to text" — so the format holds exactly when a system
 * of agents passes results between runners: a string result as-is, anything else as compact JSON,
 * a tool error as its JSON error object (the same text the model read).
 */
import type { ToolTrace } from '../session/types.js';

/** One trace item of the minimal agent output format (exactly these keys). */
export interface AgentTrace {
  readonly tool: string;
  /** Final arguments (after static parameters and defaults); absent if they never parsed. */
  readonly args?: Record<string, unknown>;
  /** The tool result serialised to text. */
  readonly output: string;
  readonly duration_secs: number;
}

/** The minimal agent output format, plus `tools_used`. */
export interface AgentOutput {
  readonly content: string;
  readonly response_time_secs: number;
  readonly traces: AgentTrace[];
  /** Tool names in order of first use, without repeats. */
  readonly tools_used: string[];
  /**
   * Present (true) when the tool rounds ran out (`max_turns`, `maxToolRounds`, `maxCalls`); runAgent
   * then asked the model once more, with no tools, and `content` is that final answer.
   */
  readonly max_turns_reached?: true;
}

/**
 * The JSON Schema of the minimal agent output format, verbatim from the seed format (docs/session.md,
 * issue 8). Extra top-level keys are allowed (`tools_used`); trace items allow none.
 */
export const AGENT_OUTPUT_SCHEMA = {
  type: 'object',
  required: ['content', 'response_time_secs', 'traces'],
  properties: {
    content: { type: 'string' },
    response_time_secs: { type: 'number' },
    traces: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tool', 'output'],
        properties: {
          tool: { type: 'string' },
          output: { type: 'string' },
          args: { type: 'object' },
          duration_secs: { type: 'number' },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: true,
} as const;

/** Builds the output of one run from its content, response time and tool traces. */
export function toAgentOutput(
  content: string,
  responseTimeSecs: number,
  traces: readonly ToolTrace[],
): AgentOutput {
  return {
    content,
    response_time_secs: responseTimeSecs,
    traces: traces.map(toAgentTrace),
    tools_used: [...new Set(traces.map((t) => t.tool))],
  };
}

/** One trace item: exactly `tool`, `args` (when they parsed), `output` as text, `duration_secs`. */
export function toAgentTrace(t: ToolTrace): AgentTrace {
  const output = outputText(t.output);
  return t.args === undefined
    ? { tool: t.tool, output, duration_secs: t.duration_secs }
    : { tool: t.tool, args: t.args, output, duration_secs: t.duration_secs };
}

/**
 * A tool result as text: strings unchanged, everything else compact JSON (a tool error's output
 * is already its `{ error: { code, message } }` object), `undefined` as `null` — the same text the
 * model received. A value JSON cannot represent (a cycle, a BigInt) becomes a `bad_response` error
 * object, never a throw.
 */
export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  try {
    return JSON.stringify(output) ?? 'null';
  } catch {
    return JSON.stringify({
      error: { code: 'bad_response', message: 'the tool result is not JSON-serialisable' },
    });
  }
}
