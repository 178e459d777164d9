/**
 * The `chat_history` field of the minimal agent input format, parsed into model messages. Lines
 * (`user: …` / `assistant: …`) or `{ role, content }` items. Items in other chat formats' roles
 * are kept in their role where the model format has a place for them, and refused otherwise — never
 * dropped silently (docs/agent-format.md):
 *
 * - `system`: kept as a system message (runAgent adds it to the run's system context).
 * - `assistant` with `tool_calls` (OpenAI shape): kept with its calls.
 * - `tool` with a `tool_call_id` answering an earlier assistant call: kept.
 * - `tool` answering no earlier call, `function` (OpenAI's legacy id-less result), any other
 *   role: an {@link AgentConfigError} naming the item (`chat_history[2].role`).
 */
import type { ChatMessage } from '../models/types.js';
import { SNAPSHOT_LIMITS } from '../session/snapshot.js';
import { AgentConfigError } from './agent-config.js';
import { kindOf } from '../option-checks.js';

/** One `chat_history` item as an object: `{ role, content }`, OpenAI's tool fields optional. */
export interface ChatHistoryItem {
  readonly role: string;
  readonly content: string | null;
  /** On an `assistant` item: the tool calls it made (OpenAI Chat Completions shape). */
  readonly tool_calls?: readonly unknown[];
  /** On a `tool` item: the id of the earlier call it answers. */
  readonly tool_call_id?: string;
}

/** A chat history line list, one string, or messages. */
export type ChatHistoryInput = string | readonly string[] | readonly ChatHistoryItem[];

type ToolCall = NonNullable<Extract<ChatMessage, { role: 'assistant' }>['tool_calls']>[number];

/** A line labelled with a role of other chat formats (not prose like "Note:"). */
const FOREIGN_LINE = /^\s*(system|developer|tool|function)\s*:/i;
const ROLE_LINE = /^\s*(user|human|customer|caller|assistant|ai|agent|bot)\s*:\s?(.*)$/i;

/**
 * Parses chat history into messages (see the file comment). Unrecognised leading lines of the
 * text form are dropped. `field` names the input in errors (`chat_history` or `chatHistory`).
 * Throws {@link AgentConfigError} for an item the model format has no place for.
 */
export function parseChatHistory(
  input: ChatHistoryInput | undefined,
  field = 'chat_history',
): ChatMessage[] {
  if (input === undefined) return [];
  if (typeof input !== 'string' && !Array.isArray(input))
    throw new AgentConfigError(
      field,
      `expected the history as text, a list of lines or a list of { role, content } items, got ${kindOf(input)}`,
    );
  if (Array.isArray(input) && input.every((m) => typeof m === 'object' && m !== null))
    return parseItems(input as readonly ChatHistoryItem[], field);
  // A list mixing lines and items (or holding a number) would have the odd one out glued to the
  // message before it as `[object Object]`: refused, naming it.
  if (Array.isArray(input)) {
    const odd = (input as readonly unknown[]).findIndex((l) => typeof l !== 'string');
    if (odd !== -1)
      throw new AgentConfigError(
        `${field}[${odd}]`,
        'expected a line of text: a list is either all lines or all { role, content } items',
      );
  }
  const lines =
    typeof input === 'string'
      ? input.split(/\r?\n/)
      : (input as readonly string[]).flatMap((l) => l.split(/\r?\n/));
  const out: { role: 'user' | 'assistant'; content: string }[] = [];
  lines.forEach((line, n) => {
    // The text form has no place for another format's role (no tool call ids, no system
    // position): such a line is refused rather than glued to the message before it.
    const foreign = FOREIGN_LINE.exec(line)?.[1];
    if (foreign !== undefined)
      throw new AgentConfigError(
        field,
        `line ${n + 1} names the role ${JSON.stringify(foreign)}, which the text form has no place for; send items { role, content } instead`,
      );
    const match = ROLE_LINE.exec(line);
    const role = match?.[1] === undefined ? undefined : roleOf(match[1]);
    if (role !== undefined) out.push({ role, content: match?.[2] ?? '' });
    else {
      const last = out.at(-1);
      if (last !== undefined) last.content += `\n${line}`;
    }
  });
  return out.map((m) => ({ role: m.role, content: m.content.trimEnd() }));
}

function parseItems(items: readonly ChatHistoryItem[], field: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  // Ids of assistant tool calls not yet answered: a tool item must answer one of them.
  const open = new Map<string, string>(); // id -> where the call is, for an unanswered one
  items.forEach((m, i) => {
    const where = `${field}[${i}]`;
    const role = typeof m.role === 'string' ? m.role.toLowerCase() : '';
    if (role === 'tool') {
      const id = m.tool_call_id;
      if (typeof id !== 'string' || !open.delete(id))
        throw new AgentConfigError(
          `${where}.role`,
          typeof id === 'string'
            ? `a "tool" item answers no earlier assistant tool call with id ${JSON.stringify(id)}`
            : 'a "tool" item needs the tool_call_id of an earlier assistant tool call it answers',
        );
      out.push({ role: 'tool', tool_call_id: id, content: textOf(m.content, where) });
      return;
    }
    if (role === 'system') {
      out.push({ role: 'system', content: textOf(m.content, where) });
      return;
    }
    const mapped = typeof m.role === 'string' ? roleOf(m.role) : undefined;
    if (mapped === undefined)
      throw new AgentConfigError(
        `${where}.role`,
        role === 'function'
          ? 'a "function" item (a legacy result without a call id) cannot be matched to a call; send it as { role: "tool", tool_call_id, content } after the assistant item that made the call'
          : `unknown role ${JSON.stringify(m.role)}; expected user, assistant, system or tool`,
      );
    if (mapped === 'assistant' && m.tool_calls !== undefined && m.tool_calls.length > 0) {
      const calls = m.tool_calls.map((c, n) => toolCall(c, `${where}.tool_calls[${n}]`));
      calls.forEach((c, n) => open.set(c.id, `${where}.tool_calls[${n}]`));
      out.push({ role: 'assistant', content: m.content, tool_calls: calls });
      return;
    }
    // Only a message with tool calls may go without text; `null` (OpenAI's "no text") says
    // nothing and is skipped, while a missing or mistyped content is refused, never dropped.
    if (m.content === null) return;
    out.push({ role: mapped, content: textOf(m.content, where) });
  });
  // A model API refuses a tool call left without its result, so the run would fail at the model.
  const unanswered = open.entries().next().value;
  if (unanswered !== undefined) {
    const [id, where] = unanswered;
    throw new AgentConfigError(
      where,
      `the call ${JSON.stringify(id)} is answered by no later "tool" item with that tool_call_id`,
    );
  }
  return out;
}

function textOf(content: unknown, where: string): string {
  if (typeof content !== 'string')
    throw new AgentConfigError(`${where}.content`, 'expected a string');
  return content;
}

function toolCall(raw: unknown, where: string): ToolCall {
  const c = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } } | null;
  const fn = typeof c === 'object' && c !== null ? c.function : undefined;
  if (
    typeof c !== 'object' ||
    c === null ||
    typeof c.id !== 'string' ||
    c.id === '' ||
    typeof fn !== 'object' ||
    fn === null ||
    typeof fn.name !== 'string' ||
    typeof fn.arguments !== 'string'
  )
    throw new AgentConfigError(
      where,
      'expected { id, type: "function", function: { name, arguments } } with string fields',
    );
  // Over the session state's cap a restore would refuse it as the host's fault; it is the caller's.
  const max = SNAPSHOT_LIMITS.maxNameLength;
  if (c.id.length > max || fn.name.length > max)
    throw new AgentConfigError(where, `the id and function name are at most ${max} characters`);
  return { id: c.id, type: 'function', function: { name: fn.name, arguments: fn.arguments } };
}

/** The message role a chat history label (`user`, `caller`, `bot`…) names; undefined for others. */
export function roleOf(name: string): 'user' | 'assistant' | undefined {
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
