/**
 * The system prompt a Symphony agent's model sees, built from its fields in a fixed order:
 * `systemPrompt` (or, without one, "You are <name>."), then `description`, the standing `task`,
 * and `directives` as a list. Sent verbatim: no templating, so braces in it stay as written.
 */
import type { SymphonyAgent } from './types.js';

export function systemPromptOf(agent: SymphonyAgent, extra?: string): string {
  const parts: string[] = [agent.systemPrompt ?? `You are ${agent.name}.`];
  if (agent.description !== undefined && agent.description !== '')
    parts.push(`About you: ${agent.description}`);
  if (agent.task !== undefined && agent.task !== '') parts.push(`Your task: ${agent.task}`);
  if (agent.directives.length > 0)
    parts.push(`Directives:\n${agent.directives.map((d) => `- ${d}`).join('\n')}`);
  if (extra !== undefined) parts.push(extra);
  return parts.join('\n\n');
}
