/**
 * History rewriting shared by the text transports of tool calls (text markers, JSON replies):
 * the tool list goes into the system prompt, earlier assistant tool calls are written back in the
 * transport's own notation, and tool results become user messages
 * (`Tool result for <name> (<id>):\n<content>`, consecutive ones merged).
 */
import type { ChatMessage, ChatTool } from './types.js';

/** How a transport writes an earlier assistant message back. */
export interface TextNotation {
  /** Replaces `{{tools}}` with the tools as JSON. */
  readonly instructions: string;
  /** True: the instructions go in even when no tool is offered. */
  readonly alwaysInstruct: boolean;
  /** The assistant's text and tool calls as the model should have written them. */
  assistant(text: string, calls: readonly { name: string; args: string }[]): string;
}

/** The tools as the instructions list them: `{ name, description?, parameters }`. */
export function toolsText(instructions: string, tools: readonly ChatTool[]): string {
  return instructions.replace(
    '{{tools}}',
    JSON.stringify(
      tools.map((t) => ({
        name: t.function.name,
        ...(t.function.description === undefined ? {} : { description: t.function.description }),
        parameters: t.function.parameters,
      })),
    ),
  );
}

/** Rewrites history for a model without native tool calls. */
export function toTextHistory(
  messages: readonly ChatMessage[],
  tools: readonly ChatTool[],
  notation: TextNotation,
): ChatMessage[] {
  const toolText = toolsText(notation.instructions, tools);
  const names = new Map<string, string>();
  const out: ChatMessage[] = [];
  let systemDone = tools.length === 0 && !notation.alwaysInstruct;
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        if (!systemDone) {
          out.push({ role: 'system', content: `${m.content}\n\n${toolText}` });
          systemDone = true;
        } else out.push(m);
        break;
      case 'user':
        out.push(m);
        break;
      case 'assistant': {
        const calls = (m.tool_calls ?? []).map((c) => {
          names.set(c.id, c.function.name);
          return { name: c.function.name, args: c.function.arguments };
        });
        out.push({ role: 'assistant', content: notation.assistant(m.content ?? '', calls) });
        break;
      }
      case 'tool': {
        const text = `Tool result for ${names.get(m.tool_call_id) ?? 'tool'} (${m.tool_call_id}):\n${m.content}`;
        const last = out.at(-1);
        if (last?.role === 'user' && last.content.startsWith('Tool result for ')) {
          out[out.length - 1] = { role: 'user', content: `${last.content}\n\n${text}` };
        } else out.push({ role: 'user', content: text });
        break;
      }
      default: {
        const _exhaustive: never = m;
        void _exhaustive;
      }
    }
  }
  if (!systemDone) out.unshift({ role: 'system', content: toolText });
  return out;
}

/** A call's arguments as a JSON value (the raw string when they are not JSON). */
export function argsValue(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}
