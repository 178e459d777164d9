/**
 * Errors by whose fault they are.
 *
 * - {@link DefinitionError}: the definition author's (or fixture author's) mistake, thrown at load
 *   time with the JSON path of every problem. Never thrown at call time.
 * - {@link ToolError}: the model's mistake or a failing service. It never escapes a session: the
 *   engine turns it into a tool result the model can read (`isError`, `code`) and the turn goes on.
 */

/** Severity of one problem found while loading definitions. */
export type IssueSeverity = 'error' | 'warning';

/** One problem found while loading a tools file, a fixture or a rule. */
export interface DefinitionIssue {
  /** Stable machine code, e.g. `schema`, `unknown_verb`, `duplicate_tool`. */
  readonly code: string;
  readonly severity: IssueSeverity;
  /** JSON path inside the source, e.g. `tools[2].endpoint.method`. */
  readonly path: string;
  readonly message: string;
  /** The file the problem is in, when loaded from a file. */
  readonly file?: string;
}

/** Renders an issue as one line: `file: path: message`. */
export function formatIssue(issue: DefinitionIssue): string {
  const where = [issue.file, issue.path].filter((p) => p !== undefined && p !== '').join(': ');
  return where === '' ? issue.message : `${where}: ${issue.message}`;
}

/** Thrown at load time when a definition (or fixture) has at least one error-severity issue. */
export class DefinitionError extends Error {
  override readonly name = 'DefinitionError';
  /** Every problem found, errors and warnings alike (warnings never cause the throw by themselves). */
  readonly issues: readonly DefinitionIssue[];

  constructor(issues: readonly DefinitionIssue[], heading = 'invalid tool definitions') {
    const errors = issues.filter((i) => i.severity === 'error');
    super(`${heading}:\n${errors.map((i) => `  ${formatIssue(i)}`).join('\n')}`);
    this.issues = issues;
  }
}

/**
 * Stable codes of tool errors. A tool error is fed back to the model as the tool's result, so the
 * model can correct itself; the session never throws because of one.
 */
export type ToolErrorCode =
  /** The model's arguments are not valid JSON, too large, too deep or fail the JSON Schema. */
  | 'invalid_arguments'
  /** The model called a tool that does not exist (or is not available to the active agent). */
  | 'unknown_tool'
  /** A template named a value that does not exist and `onMissingTemplateValue` is `error`. */
  | 'missing_template_value'
  /** The endpoint answered with a non-2xx status. */
  | 'http_status'
  /** The endpoint answered with a 3xx status; redirects are never followed. */
  | 'http_redirect'
  /** The tool did not finish before its deadline. */
  | 'timeout'
  /** Connection refused, reset, DNS failure, malformed response framing. */
  | 'network'
  /** A command tool's program exited with a non-zero status or was ended by a signal. */
  | 'command_failed'
  /** A command tool's program could not be started (`ENOENT`, `EACCES`…). */
  | 'spawn_failed'
  /** The response body (or a command's stdout) exceeded the size cap. */
  | 'response_too_large'
  /** The response could not be parsed as its content type says. */
  | 'bad_response'
  /** The request was refused by the network policy (allowed hosts, private networks). */
  | 'policy_denied'
  /** The tool's URL is outside the origins its service's credentials may be sent to. */
  | 'origin_not_allowed'
  /** An action has no host handler and no `result`. */
  | 'not_available'
  /** A context tool asked for a language outside the session's `languages`, or an invalid tag. */
  | 'invalid_language'
  /** A host action handler threw. */
  | 'handler_error'
  /** The call was cancelled (interruption) before it finished. */
  | 'cancelled'
  /**
   * A side-effecting call was started by a process that stopped before its result was recorded;
   * the resumed session does not repeat it (docs/sessions-redis.md).
   */
  | 'outcome_unknown'
  /** The answer held more tool calls than `limits.maxCallsPerAnswer`; this one never ran. */
  | 'too_many_calls'
  /** A workflow expression or template exceeded its step budget or time slice. */
  | 'expression_budget'
  /** A workflow's computed or rendered result exceeded the result size or depth cap. */
  | 'result_too_large'
  /** The MCP server of an MCP tool is gone (exited, closed, unreachable) or broke the protocol. */
  | 'mcp_server_failed'
  /** An MCP server answered the call with an error (`isError`, or a JSON-RPC error). */
  | 'mcp_tool_error';

/** A failure the model should see as the tool's result. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  readonly code: ToolErrorCode;
  /** Extra data safe to show the model (never secrets): status, allowed values, … */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(code: ToolErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.details = details;
  }

  /** The JSON the model receives. */
  toJSON(): { error: { code: ToolErrorCode; message: string } & Record<string, unknown> } {
    return { error: { code: this.code, message: this.message, ...(this.details ?? {}) } };
  }
}

/** True for a {@link ToolError} (also across module copies). */
export function isToolError(value: unknown): value is ToolError {
  return value instanceof ToolError || (value instanceof Error && value.name === 'ToolError');
}
