/**
 * The loopback server's conversation as a chat request for its model: items become chat
 * messages (a response's function calls join one assistant message), session tools become
 * chat tools.
 */
import type { ChatMessage, ChatTool } from '../models/types.js';
import { isObject } from './client-events.js';
import type { LoopbackItem } from './realtime-loopback.js';

/** The chat messages the model sees: the session instructions, then every item in order. */
export function chatMessages(
  config: { readonly instructions: string },
  items: readonly LoopbackItem[],
): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (config.instructions !== '') out.push({ role: 'system', content: config.instructions });
  let lastResponse: string | undefined;
  for (const item of items) {
    if (item.type === 'message') {
      out.push(
        item.role === 'user'
          ? { role: 'user', content: item.text }
          : { role: 'assistant', content: item.text },
      );
      lastResponse = undefined;
    } else if (item.type === 'function_call') {
      const call = {
        id: item.call_id,
        type: 'function' as const,
        function: { name: item.name, arguments: item.arguments },
      };
      const prev = out[out.length - 1];
      if (prev?.role === 'assistant' && lastResponse === item.response)
        out[out.length - 1] = { ...prev, tool_calls: [...(prev.tool_calls ?? []), call] };
      else out.push({ role: 'assistant', content: null, tool_calls: [call] });
      lastResponse = item.response;
    } else {
      out.push({ role: 'tool', tool_call_id: item.call_id, content: item.output });
      lastResponse = undefined;
    }
  }
  return out;
}

/** The session tools (`session.update`) as chat tools; one without a name is skipped. */
export function chatTools(tools: readonly Record<string, unknown>[]): ChatTool[] {
  return tools.flatMap((t) =>
    typeof t.name === 'string'
      ? [
          {
            type: 'function' as const,
            function: {
              name: t.name,
              ...(typeof t.description === 'string' ? { description: t.description } : {}),
              parameters: isObject(t.parameters) ? t.parameters : {},
            },
          },
        ]
      : [],
  );
}
