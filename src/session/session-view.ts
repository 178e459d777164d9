/**
 * What the model sees of a live session (live-session.ts), made every round: the active agent's
 * model and tools, the tools in the model's format, and the system messages (prompt, host
 * context, workflow context). Plain functions of the session's options and state, with the caches
 * of agent tool maps and chat tools shared across sessions.
 */
import type { ToolDefinition } from '../definition/types.js';
import type { ChatMessage, ChatTool, Model } from '../models/types.js';
import { append } from '../small-arrays.js';
import { renderMustache, toChatTools } from './deps.js';
import type { LazySystemValues, LiveState } from './session-state.js';
import type { AgentConfig, SessionOptions } from './types.js';
import {
  hasTasks,
  workflowContext,
  workflowTools,
  type WorkflowTools,
} from './workflow/runtime.js';

/** The part of a session these functions read. */
export interface SessionView {
  readonly options: SessionOptions;
  readonly state: LiveState;
}

// Shared across sessions: the tool map of each agent config, and the chat tools of each tool map
// when no description needs rendering. This keeps an idle session small.
const agentTools = new WeakMap<
  AgentConfig,
  {
    readonly all: ReadonlyMap<string, ToolDefinition>;
    readonly tools: ReadonlyMap<string, ToolDefinition>;
  }
>();
const chatToolCache = new WeakMap<ReadonlyMap<string, ToolDefinition>, readonly ChatTool[]>();

function agentConfig({ options, state }: SessionView): AgentConfig | undefined {
  const agents = options.agents;
  const name = state.agent;
  return agents !== undefined && name !== undefined && Object.hasOwn(agents, name)
    ? agents[name]
    : undefined;
}

// Without agents (most sessions) the session's own model, tools and prompt, with no lookup: these
// are read several times a round.
export function activeModel(view: SessionView): Model {
  if (view.options.agents === undefined) return view.options.model;
  return agentConfig(view)?.model ?? view.options.model;
}

export function activeTools(view: SessionView): ReadonlyMap<string, ToolDefinition> {
  const all = view.options.tools.tools;
  if (view.options.agents === undefined) return all;
  const agent = agentConfig(view);
  if (agent?.tools === undefined) return all;
  // Cached per agent config for one map of all tools: a live tool set (docs/mcp.md) that
  // changed its map makes the agent's map again.
  const cached = agentTools.get(agent);
  if (cached?.all === all) return cached.tools;
  const tools = new Map<string, ToolDefinition>();
  for (const name of agent.tools) {
    const def = all.get(name);
    if (def !== undefined) tools.set(name, def);
  }
  agentTools.set(agent, { all, tools });
  return tools;
}

export function chatTools(
  view: SessionView,
  tools: ReadonlyMap<string, ToolDefinition>,
  system: LazySystemValues,
  wf: WorkflowTools = workflowTools(view.state, tools),
): readonly ChatTool[] {
  const base = baseChatTools(view.state, tools, system);
  // Workflows (docs/workflows.md): definitions holding tasks give way to their generated
  // tools, and a current step's `tools.allow` hides the other tools.
  if (wf.hidden.size === 0 && wf.extra.length === 0) return base;
  return [...base.filter((t) => !wf.hidden.has(t.function.name)), ...wf.extra];
}

function baseChatTools(
  state: LiveState,
  tools: ReadonlyMap<string, ToolDefinition>,
  system: LazySystemValues,
): readonly ChatTool[] {
  const cached = chatToolCache.get(tools);
  if (cached !== undefined) return cached;
  const templated = [...tools.values()].some(
    (t) => t.tool.function.description?.includes('{{') === true,
  );
  // Without a template in any description, neither vars nor system values are read.
  if (!templated) {
    const rendered = toChatTools(tools.values());
    chatToolCache.set(tools, rendered);
    return rendered;
  }
  return toChatTools(tools.values(), { vars: state.vars, session: system.get() });
}

export function systemMessages(
  view: SessionView,
  system: LazySystemValues,
  workflows?: boolean,
): readonly ChatMessage[] {
  const { options, state } = view;
  const prompt =
    (options.agents === undefined ? undefined : agentConfig(view)?.prompt) ?? options.prompt;
  // Built with `append`: one or two messages, made every round.
  let out: ChatMessage[] = [];
  if (prompt !== undefined && prompt !== '') {
    const content = prompt.includes('{{')
      ? renderMustache(prompt, { vars: state.vars, session: system.get() })
      : prompt;
    out = append(out, { role: 'system', content });
  }
  const extra = options.systemContext;
  if (extra !== undefined && extra !== '') out = append(out, { role: 'system', content: extra });
  // Workflows, when the round has not already looked (the Realtime transport calls this too).
  const tools = workflows === false ? undefined : activeTools(view);
  const context =
    tools !== undefined && (workflows ?? hasTasks(tools))
      ? workflowContext(state, tools, {
          vars: state.vars,
          system: system.get(),
          callTool: () => Promise.reject(new Error('no tool calls while rendering instructions')),
        })
      : undefined;
  if (context !== undefined) out = append(out, { role: 'system', content: context });
  return out;
}
