/**
 * Validation of a stored session snapshot ({@link SessionState}) before it becomes a live
 * session. A snapshot comes from outside the process (a store, a file, a request), so it is
 * parsed once here with a zod schema plus the checks `createSession` applies to its options: the
 * language must be a BCP-47 tag (inside `languages` when declared), the agent must be declared,
 * history holds only user/assistant/tool messages whose tool results answer earlier calls (and
 * system messages only as the engine's report of an earlier call's background result), and
 * `vars` is plain JSON within a depth and size cap (checked without recursion).
 *
 * A bad snapshot throws a {@link DefinitionError} (heading "invalid session state", issue code
 * `session_state`) naming every bad path; nothing is restored. Other stores (Redis, SQL) call
 * {@link parseSnapshot} on what they read.
 */
import type { z as Z } from 'zod';
import { DefinitionError, type DefinitionIssue } from '../errors.js';
import { canonicalLanguage } from '../handlers/context-handler.js';
import { once, zod } from '../lazy-deps.js';
import type { SessionState } from './types.js';
import { backgroundResultPrefix } from './voice/background-calls.js';

/** Caps on a snapshot's size and shape. */
export const SNAPSHOT_LIMITS = {
  /** Deepest nesting inside `vars` (and each workflow's `inputs`/`local`). */
  maxVarsDepth: 64,
  /** Most values (of any kind) inside `vars` and workflow state together. */
  maxVarsNodes: 200_000,
  /** Most history messages. */
  maxHistory: 100_000,
  /** Largest `turns`. */
  maxTurns: 1_000_000,
  /** Longest `id`, agent name, tool call id or tool name. */
  maxNameLength: 512,
} as const;

/** What the snapshot is checked against (the session options it will be restored with). */
export interface SnapshotCheckOptions {
  /** Allowed languages (canonical or not); absent: every BCP-47 tag is allowed. */
  readonly languages?: readonly string[];
  /** Declared agent names; absent: the snapshot must name no agent. */
  readonly agents?: Iterable<string>;
}

/** Builds the snapshot schema with the `z` given (on first use, so importing loads no zod). */
function buildSchemas(z: typeof Z) {
  const name = z.string().min(1).max(SNAPSHOT_LIMITS.maxNameLength);
  // What a model sent (call ids, tool names) may be empty; it is still kept as it was.
  const modelName = z.string().max(SNAPSHOT_LIMITS.maxNameLength);

  const toolCallSchema = z.strictObject({
    id: modelName,
    type: z.literal('function'),
    function: z.strictObject({ name: modelName, arguments: z.string() }),
  });

  const messageSchema = z.discriminatedUnion('role', [
    z.strictObject({ role: z.literal('user'), content: z.string() }),
    z.strictObject({
      role: z.literal('assistant'),
      content: z.string().nullable(),
      tool_calls: z.array(toolCallSchema).optional(),
    }),
    z.strictObject({ role: z.literal('tool'), tool_call_id: modelName, content: z.string() }),
    // Only as the result of an earlier background call (checkToolPairs).
    z.strictObject({ role: z.literal('system'), content: z.string() }),
  ]);

  const plainRecord = z.custom<Record<string, unknown>>(isPlainRecord, 'expected a plain object');

  const workflowSchema = z.strictObject({
    status: z.enum(['active', 'completed']),
    step: z.string().optional(),
    inputs: plainRecord,
    local: plainRecord,
  });

  const snapshotSchema = z.strictObject({
    version: z.literal(1),
    id: name,
    language: z.string().min(1).max(64),
    vars: plainRecord,
    agent: name.optional(),
    history: z.array(messageSchema).max(SNAPSHOT_LIMITS.maxHistory),
    turns: z.number().int().min(0).max(SNAPSHOT_LIMITS.maxTurns),
    ended: z.boolean(),
    workflows: z.record(z.string(), workflowSchema).optional(),
  });
  return { snapshotSchema, messageSchema };
}

const schemas = once(() => buildSchemas(zod()));

/**
 * Parses an untrusted snapshot. Returns a checked copy (plain JSON, language canonical); throws a
 * {@link DefinitionError} naming each bad path.
 */
export function parseSnapshot(value: unknown, options: SnapshotCheckOptions = {}): SessionState {
  return parse(value, options);
}

/**
 * The checks of {@link parseSnapshot} that need no session options, for a store checking what it
 * reads: every BCP-47 language and every agent name pass (restoring checks them against the options).
 */
export function parseStoredSnapshot(value: unknown): SessionState {
  return parse(value, undefined);
}

function parse(value: unknown, options: SnapshotCheckOptions | undefined): SessionState {
  const issues: DefinitionIssue[] = [];
  const problem = (path: string, message: string): void => {
    issues.push({ code: 'session_state', severity: 'error', path, message });
  };
  // Depth and size first, without recursion: zod and JSON would overflow the stack on 100k levels.
  if (isPlainRecord(value)) {
    if (typeof value['vars'] === 'object') checkJsonShape(value['vars'], 'vars', problem);
    if (isPlainRecord(value['workflows'])) checkJsonShape(value['workflows'], 'workflows', problem);
  }
  if (issues.length > 0) throw snapshotError(issues);
  const parsed = schemas().snapshotSchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problem(formatPath(issue.path), issue.message);
    throw snapshotError(issues);
  }
  const state = parsed.data;
  const language = checkLanguage(state.language, options?.languages, problem);
  if (
    options !== undefined &&
    state.agent !== undefined &&
    !new Set(options.agents ?? []).has(state.agent)
  )
    problem('agent', `${JSON.stringify(state.agent)} is not an agent of the session options`);
  checkToolPairs(state.history, problem);
  if (issues.length > 0) throw snapshotError(issues);
  return JSON.parse(JSON.stringify({ ...state, language })) as SessionState;
}

function checkLanguage(
  tag: string,
  languages: readonly string[] | undefined,
  problem: (path: string, message: string) => void,
): string {
  const canonical = canonicalLanguage(tag);
  if (canonical === undefined) {
    problem('language', `${JSON.stringify(tag)} is not a BCP-47 language tag`);
    return tag;
  }
  if (languages !== undefined && languages.length > 0) {
    const allowed = languages.map((l) => canonicalLanguage(l) ?? l);
    if (!allowed.includes(canonical))
      problem(
        'language',
        `"${canonical}" is not one of the session's languages: ${allowed.join(', ')}`,
      );
  }
  return canonical;
}

/**
 * Every tool message answers a call an earlier assistant message made (each id answered once), and
 * a system message is the engine's report of an earlier call's background result, nothing else.
 */
function checkToolPairs(
  history: readonly Z.infer<ReturnType<typeof buildSchemas>['messageSchema']>[],
  problem: (path: string, message: string) => void,
): void {
  const open = new Map<string, number>();
  const calls = new Map<string, Set<string>>(); // tool name -> ids of calls made so far
  history.forEach((m, i) => {
    if (m.role === 'assistant')
      for (const c of m.tool_calls ?? []) {
        open.set(c.id, (open.get(c.id) ?? 0) + 1);
        const ids = calls.get(c.function.name) ?? new Set<string>();
        calls.set(c.function.name, ids.add(c.id));
      }
    else if (m.role === 'system') {
      if (!reportsBackgroundResult(m.content, calls))
        problem(
          `history[${i}].role`,
          'a system message is kept only as the result of an earlier background call',
        );
    } else if (m.role === 'tool') {
      const left = open.get(m.tool_call_id) ?? 0;
      if (left > 0) open.set(m.tool_call_id, left - 1);
      else
        problem(
          `history[${i}].tool_call_id`,
          `${JSON.stringify(m.tool_call_id)} answers no earlier tool call`,
        );
    }
  });
}

/** Whether `content` is the background result message of a call in `calls` (name -> ids). */
function reportsBackgroundResult(
  content: string,
  calls: ReadonlyMap<string, Set<string>>,
): boolean {
  const start = 'The background call ';
  if (!content.startsWith(start)) return false;
  const name = content.slice(start.length, content.indexOf(' (id ', start.length));
  for (const id of calls.get(name) ?? []) {
    if (
      content.startsWith(backgroundResultPrefix(name, id, false)) ||
      content.startsWith(backgroundResultPrefix(name, id, true))
    )
      return true;
  }
  return false;
}

/** Walks JSON data iteratively: depth and node caps, only plain objects, arrays and primitives. */
function checkJsonShape(
  root: unknown,
  base: string,
  problem: (path: string, message: string) => void,
): void {
  const stack: { value: unknown; depth: number; path: string }[] = [
    { value: root, depth: 0, path: base },
  ];
  let nodes = 0;
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop() as { value: unknown; depth: number; path: string };
    if (++nodes > SNAPSHOT_LIMITS.maxVarsNodes) {
      problem(base, `holds more than ${SNAPSHOT_LIMITS.maxVarsNodes} values`);
      return;
    }
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) problem(path, 'is not a finite number');
      continue;
    }
    if (typeof value !== 'object' || (!Array.isArray(value) && !isPlainRecord(value))) {
      problem(path, 'is not JSON data');
      return;
    }
    if (depth >= SNAPSHOT_LIMITS.maxVarsDepth) {
      problem(path, `nests deeper than ${SNAPSHOT_LIMITS.maxVarsDepth} levels`);
      return;
    }
    if (Array.isArray(value))
      value.forEach((v, i) => stack.push({ value: v, depth: depth + 1, path: `${path}[${i}]` }));
    else
      for (const key of Object.keys(value))
        stack.push({ value: value[key], depth: depth + 1, path: `${path}.${key}` });
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out === '' ? '(snapshot)' : out;
}

function snapshotError(issues: readonly DefinitionIssue[]): DefinitionError {
  return new DefinitionError(issues, 'invalid session state');
}
