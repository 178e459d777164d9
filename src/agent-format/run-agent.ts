/**
 * runAgent: one-shot agent call in the minimal agent output format — `{ content,
 * response_time_secs, traces: [{ tool, args, output, duration_secs }] }` plus `tools_used` (tool
 * names deduplicated in order of first use). Builds a session, seeds it with `chatHistory` and
 * `memory`, runs the prompt as one user turn, and closes the session. The output format itself
 * lives in agent-output.ts; richer data lives in createSession's TurnResult.
 */
import type { ToolSet } from '../definition/types.js';
import { loadTools } from '../definition/load.js';
import { DefinitionError } from '../errors.js';
import {
  anyValue,
  arrayOf,
  checkOptions,
  fields,
  isString,
  kindOf,
  withMethods,
  type Check,
} from '../option-checks.js';
import { isPlainObject } from '../own-data.js';
import type { ChatMessage } from '../models/types.js';
import { createSession, restoreSession } from '../session/create-session.js';
import { AgentConfigError, applyAgentConfig } from './agent-config.js';
import { parseChatHistory, type ChatHistoryInput } from './chat-history.js';
import { resolveToolsPath } from './tool-root.js';
import { toAgentOutput, type AgentOutput } from './agent-output.js';
import type { SessionOptions } from '../session/types.js';

export { parseChatHistory, roleOf } from './chat-history.js';
export type { ChatHistoryInput, ChatHistoryItem } from './chat-history.js';

/** Options of {@link runAgent}: session options plus the minimal agent input fields. */
export interface RunAgentOptions extends Omit<SessionOptions, 'tools'> {
  /** A loaded ToolSet, a path to a tools file, or the parsed definitions. */
  readonly tools: ToolSet | string | readonly unknown[] | { readonly tools: readonly unknown[] };
  /**
   * Earlier conversation: lines `user: …` / `assistant: …` (continuation lines join the previous
   * one), or `{ role, content }` items; `system` items join the system context, `tool` items must
   * answer an earlier assistant item's `tool_calls` (chat-history.ts).
   */
  readonly chatHistory?: ChatHistoryInput;
  /** `chatHistory` in the seed format's spelling (giving both is an {@link AgentConfigError}). */
  readonly chat_history?: ChatHistoryInput;
  /** Extra context sent as a system message (objects as JSON). */
  readonly memory?: string | readonly string[] | Readonly<Record<string, unknown>>;
  /**
   * Per-call config of the seed format, winning over the options: `model_overrides`,
   * `domain_timeout_secs`, `only_domains`, `execution_mode` (ignored), `tool_root` (the folder
   * a `tools` path is read from; refused for loaded tools), and `prompt`/
   * `system_prompt`, `maxToolRounds`/`max_tool_rounds`, `maxCalls`/`max_calls`, `language`,
   * `languages`, `vars` (merged over `vars`), `toolDefaults`/`tool_defaults`, `agent`,
   * `onMissingTemplateValue`. Unknown keys are ignored; a known key of the wrong type throws an
   * {@link AgentConfigError} naming it. See agent-config.ts and docs/agent-format.md.
   */
  readonly config?: Readonly<Record<string, unknown>>;
  /**
   * Ends the run when aborted, as closing its session does: the turn stops and makes no further
   * model call, calls whose side-effect class is `none` are cancelled, `idempotent` and `unsafe`
   * ones run to completion (docs/voice.md). The result is then the interrupted turn's output.
   */
  readonly signal?: AbortSignal;
}

const history: Check = (value, path, sink) => {
  if (typeof value !== 'string' && !Array.isArray(value))
    sink.problem(
      path,
      `expected lines of text or an array of { role, content }, got ${kindOf(value)}`,
    );
};

/**
 * The run's own options (the rest are the session's, checked by createSession): a number for a
 * history was a TypeError inside, a `memory` of another kind was dropped without a word, a
 * `signal` that is none failed as `throwIfAborted is not a function`. A cheap check: five keys.
 */
const OWN = fields({
  chatHistory: history,
  chat_history: history,
  memory: (value, path, sink) => {
    if (typeof value !== 'string' && !Array.isArray(value) && !isPlainObject(value))
      sink.problem(path, `expected text, an array of text or an object, got ${kindOf(value)}`);
    else if (Array.isArray(value)) arrayOf(isString)(value, path, sink);
  },
  config: anyValue,
  signal: withMethods('an AbortSignal', 'throwIfAborted', 'addEventListener'),
});

/** Runs `prompt` (the user's message) through an agent and returns the minimal output format. */
export async function runAgent(prompt: string, options: RunAgentOptions): Promise<AgentOutput> {
  checkOptions(OWN, options, { caller: 'runAgent', passOn: 'ignore-unknown' });
  const now = options._internal?.now ?? Date.now;
  const startedAt = now();
  const source = await resolveToolsPath(options.tools, toolRootOf(options.config));
  const tools = isToolSet(source) ? source : await loadTools(source);
  // Swarm's loop returns the last message when max_turns runs out; the session asks for it.
  const finalAnswerAfterMaxRounds = options.finalAnswerAfterMaxRounds ?? true;
  // The run's own options are not the session's (createSession warns about keys it does not know).
  const { chatHistory, chat_history, memory: _memory, config, signal: _signal, ...own } = options;
  const sessionOptions = applyAgentConfig({ ...own, tools, finalAnswerAfterMaxRounds }, config);
  // Two histories with no rule to choose between them: the caller says which.
  if (chatHistory !== undefined && chat_history !== undefined)
    throw new AgentConfigError(
      'chat_history',
      'given as both chatHistory and chat_history; give one',
    );
  const field = chatHistory !== undefined ? 'chatHistory' : 'chat_history';
  const parsed = parseChatHistory(chatHistory ?? chat_history, field);
  // A history `system` item joins the run's system context (a restored history keeps system
  // messages only as the engine's own background-call reports); the rest is the conversation.
  const history = parsed.filter((m) => m.role !== 'system');
  const historySystem = parsed.flatMap((m) => (m.role === 'system' ? [m.content] : []));
  const memory = joinOptional(
    historySystem.length === 0 ? undefined : historySystem.join('\n\n'),
    memoryText(options.memory),
  );
  // The memory's context is written over a copy, not added after a spread (see checkedOptions in
  // session-setup.ts: a key added after a spread gives each copy its own hidden class).
  let base: SessionOptions = sessionOptions;
  if (memory !== undefined) {
    const systemContext = joinContext(sessionOptions.systemContext, memory);
    const withMemory: { -readonly [K in keyof SessionOptions]: SessionOptions[K] } = {
      systemContext,
      ...sessionOptions,
    };
    withMemory.systemContext = systemContext;
    base = withMemory;
  }
  const signal = options.signal;
  signal?.throwIfAborted();
  const session = openSession(base, history, options.config);
  // Closing (not `interrupt()`): a caller gone is a hang-up, not a barge-in, so a tool's barge-in
  // lock does not keep the turn going; side-effect classes still decide what is cancelled.
  let closing: Promise<void> | undefined;
  const stop = (): void => void (closing ??= session.close());
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const result = await session.run(prompt);
    const out = toAgentOutput(result.content, Math.max(0, now() - startedAt) / 1000, result.traces);
    return result.events.some((e) => e.type === 'max-rounds')
      ? { ...out, max_turns_reached: true }
      : out;
  } finally {
    signal?.removeEventListener('abort', stop);
    await (closing ??= session.close());
  }
}

function openSession(
  base: SessionOptions,
  history: ChatMessage[],
  config: RunAgentOptions['config'],
): ReturnType<typeof createSession> {
  try {
    const fresh = createSession(base);
    return history.length === 0 ? fresh : restoreSession({ ...fresh.toJSON(), history }, base);
  } catch (error) {
    throw blameConfig(error, config);
  }
}

/** Session options a `config` key sets, by the spellings of the key. */
const CONFIG_KEYS: ReadonlyMap<string, readonly string[]> = new Map([
  ['toolDefaults', ['toolDefaults', 'tool_defaults']],
  ['language', ['language']],
  ['languages', ['languages']],
  ['toolTimeoutCapSecs', ['domain_timeout_secs']],
  ['prompt', ['prompt', 'system_prompt', 'systemPrompt']],
]);

/**
 * createSession refuses options with a DefinitionError, which blames the host; when the refused
 * option came from the run's `config`, the caller of the run is to blame: an AgentConfigError
 * naming the key as the caller spelt it (`config.tool_defaults.book.clinic`).
 */
function blameConfig(error: unknown, config: RunAgentOptions['config']): unknown {
  if (!(error instanceof DefinitionError) || config === undefined) return error;
  const issue = error.issues.find((i) => i.severity === 'error');
  if (issue === undefined) return error;
  const root = issue.path.split(/[.[]/, 1)[0] ?? '';
  const key = CONFIG_KEYS.get(root)?.find((k) => Object.hasOwn(config, k));
  if (key === undefined) return error;
  return new AgentConfigError(`config.${key}${issue.path.slice(root.length)}`, issue.message);
}

function toolRootOf(config: RunAgentOptions['config']): unknown {
  return config !== undefined && Object.hasOwn(config, 'tool_root')
    ? config['tool_root']
    : undefined;
}

function isToolSet(value: unknown): value is ToolSet {
  return (
    typeof value === 'object' &&
    value !== null &&
    'tools' in value &&
    (value as { tools: unknown }).tools instanceof Map
  );
}

function joinOptional(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined ? b : b === undefined ? a : `${a}\n\n${b}`;
}

function joinContext(a: string | undefined, b: string): string {
  return a === undefined || a === '' ? b : `${a}\n\n${b}`;
}

function memoryText(memory: RunAgentOptions['memory']): string | undefined {
  if (memory === undefined) return undefined;
  const text =
    typeof memory === 'string'
      ? memory
      : isStringArray(memory)
        ? memory.join('\n')
        : JSON.stringify(memory);
  return text.trim() === ''
    ? undefined
    : `Memory (what you know from earlier conversations):\n${text}`;
}

function isStringArray(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
