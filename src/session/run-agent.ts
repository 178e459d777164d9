/**
 * runAgent: one-shot agent call in the minimal agent output format — `{ content,
 * response_time_secs, traces: [{ tool, args, output, duration_secs }] }` plus `tools_used` (tool
 * names deduplicated in order of first use). Builds a session, seeds it with `chatHistory` and
 * `memory`, runs the prompt as one user turn, and closes the session. The output format itself
 * lives in agent-output.ts; richer data lives in createSession's TurnResult.
 */
import type { ToolSet } from '../definition/types.js';
import { loadTools } from '../definition/load.js';
import type { ChatMessage } from '../models/types.js';
import { createSession, restoreSession } from './create-session.js';
import { applyAgentConfig, type AgentConfigError } from './agent-config.js';
import { toAgentOutput, type AgentOutput } from './agent-output.js';
import type { SessionOptions } from './types.js';

/** A chat history line list, one string, or messages. */
export type ChatHistoryInput =
  string | readonly string[] | readonly { readonly role: string; readonly content: string }[];

/** Options of {@link runAgent}: session options plus the minimal agent input fields. */
export interface RunAgentOptions extends Omit<SessionOptions, 'tools'> {
  /** A loaded ToolSet, a path to a tools file, or the parsed definitions. */
  readonly tools: ToolSet | string | readonly unknown[] | { readonly tools: readonly unknown[] };
  /** Earlier conversation: lines `user: …` / `assistant: …` (continuation lines join the previous one). */
  readonly chatHistory?: ChatHistoryInput;
  /** `chatHistory` in the seed format's spelling (`chatHistory` wins when both are given). */
  readonly chat_history?: ChatHistoryInput;
  /** Extra context sent as a system message (objects as JSON). */
  readonly memory?: string | readonly string[] | Readonly<Record<string, unknown>>;
  /**
   * Per-call config of the seed format, winning over the options: `model_overrides`,
   * `domain_timeout_secs`, `only_domains`, `execution_mode` (ignored), and `prompt`/
   * `system_prompt`, `maxToolRounds`/`max_tool_rounds`, `maxCalls`/`max_calls`, `language`,
   * `languages`, `vars` (merged over `vars`), `toolDefaults`/`tool_defaults`, `agent`,
   * `onMissingTemplateValue`. Unknown keys are ignored; a known key of the wrong type throws an
   * {@link AgentConfigError} naming it. See agent-config.ts and docs/agent-format.md.
   */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** Runs `prompt` (the user's message) through an agent and returns the minimal output format. */
export async function runAgent(prompt: string, options: RunAgentOptions): Promise<AgentOutput> {
  const now = options._internal?.now ?? Date.now;
  const startedAt = now();
  const tools = isToolSet(options.tools) ? options.tools : await loadTools(options.tools);
  const sessionOptions = applyAgentConfig({ ...options, tools }, options.config);
  const history = parseChatHistory(options.chatHistory ?? options.chat_history);
  const memory = memoryText(options.memory);
  // The memory's context is written over a copy, not added after a spread (see checkedOptions in
  // create-session.ts: a key added after a spread gives each copy its own hidden class).
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
  const fresh = createSession(base);
  const session =
    history.length === 0 ? fresh : restoreSession({ ...fresh.toJSON(), history }, base);
  try {
    const result = await session.run(prompt);
    return toAgentOutput(result.content, Math.max(0, now() - startedAt) / 1000, result.traces);
  } finally {
    await session.close();
  }
}

function isToolSet(value: unknown): value is ToolSet {
  return (
    typeof value === 'object' &&
    value !== null &&
    'tools' in value &&
    (value as { tools: unknown }).tools instanceof Map
  );
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

const ROLE_LINE = /^\s*(user|human|customer|caller|assistant|ai|agent|bot)\s*:\s?(.*)$/i;

/** Parses chat history into user/assistant messages. Unrecognised leading lines are dropped. */
export function parseChatHistory(input: ChatHistoryInput | undefined): ChatMessage[] {
  if (input === undefined) return [];
  if (Array.isArray(input) && input.every((m) => typeof m === 'object' && m !== null)) {
    const out: ChatMessage[] = [];
    for (const m of input as readonly { role: string; content: string }[]) {
      if (typeof m.content !== 'string') continue;
      const role = roleOf(m.role);
      if (role !== undefined) out.push({ role, content: m.content });
    }
    return out;
  }
  const lines =
    typeof input === 'string'
      ? input.split(/\r?\n/)
      : (input as readonly string[]).flatMap((l) => String(l).split(/\r?\n/));
  const out: { role: 'user' | 'assistant'; content: string }[] = [];
  for (const line of lines) {
    const match = ROLE_LINE.exec(line);
    const role = match?.[1] === undefined ? undefined : roleOf(match[1]);
    if (role !== undefined) out.push({ role, content: match?.[2] ?? '' });
    else {
      const last = out.at(-1);
      if (last !== undefined) last.content += `\n${line}`;
    }
  }
  return out.map((m) => ({ role: m.role, content: m.content.trimEnd() }));
}

function roleOf(name: string): 'user' | 'assistant' | undefined {
  switch (name.toLowerCase()) {
    case 'user':
    case 'human':
    case 'customer':
    case 'caller':
      return 'user';
    case 'assistant':
    case 'ai':
    case 'agent':
    case 'bot':
      return 'assistant';
    default:
      return undefined;
  }
}
