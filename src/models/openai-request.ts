/**
 * What the OpenAI adapter sends (openai.ts): the session's messages and tools in the Chat
 * Completions format.
 */
import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ChatTool } from './types.js';

export function toOpenAIMessage(m: ChatMessage): ChatCompletionMessageParam {
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content };
    case 'user':
      return { role: 'user', content: m.content };
    case 'tool':
      return { role: 'tool', tool_call_id: m.tool_call_id, content: m.content };
    case 'assistant':
      return m.tool_calls === undefined || m.tool_calls.length === 0
        ? { role: 'assistant', content: m.content }
        : {
            role: 'assistant',
            content: m.content,
            tool_calls: m.tool_calls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.function.name, arguments: c.function.arguments },
            })),
          };
    default: {
      const _exhaustive: never = m;
      return _exhaustive;
    }
  }
}

export function toOpenAITool(t: ChatTool): ChatCompletionTool {
  return {
    type: 'function',
    function: {
      name: t.function.name,
      ...(t.function.description === undefined ? {} : { description: t.function.description }),
      parameters: t.function.parameters,
      ...(t.function.strict === undefined ? {} : { strict: t.function.strict }),
    },
  };
}
