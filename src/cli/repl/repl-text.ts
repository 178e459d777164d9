/** Small text helpers of the REPL's output. */
import type { ToolDefinition } from '../../definition/types.js';

/** A URL without its query (token endpoints are matched without it). */
export function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}

/** One line of at most `max` characters, whitespace runs folded. */
export function cut(text: string, max = 200): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** `/history`: one message as a line. */
export function historyLine(m: {
  role: string;
  content?: string | null;
  tool_calls?: readonly { function: { name: string; arguments: string } }[];
}): string {
  const calls = m.tool_calls?.map((c) => `${c.function.name}(${c.function.arguments})`).join(', ');
  const content = m.content ?? '';
  return `${m.role}:${content !== '' ? ` ${content}` : ''}${calls !== undefined ? ` → ${calls}` : ''}`;
}

/** `/tools`: one tool as a line, with its parameters and description. */
export function toolLine(t: ToolDefinition): string {
  const properties = t.tool.function.parameters['properties'];
  const props =
    properties !== null && typeof properties === 'object' ? Object.keys(properties) : [];
  const description = t.tool.function.description;
  return `  ${t.name} [${t.type}] (${props.join(', ')})${description !== undefined ? ` — ${description}` : ''}`;
}
