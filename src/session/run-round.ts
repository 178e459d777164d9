/**
 * One round of a turn: one model call, streamed, and the tool calls of its answer. Each call
 * starts as soon as the stream delivers it (so parallel calls overlap with the rest of the
 * stream); results are applied and appended to history in call order; every tool call id gets
 * exactly one tool message, also after a model error or an interruption.
 * The stream's end hands over a StreamedRound (streamed-round.ts), which the turn awaits and ends.
 */
import { NO_USAGE, type ModelToolCall, type ModelUsage } from '../models/types.js';
import { effectiveToolDefaults } from './check-options.js';
import { ToolError } from '../errors.js';
import { asModelError, withScrubbedMessage, type ModelError } from '../models/errors.js';
import type { SecretSet } from '../handlers/endpoint/secret-set.js';
import { applyToolResult } from './apply-effects.js';
import { executeToolCall, type ExecuteContext, type ToolCallResult } from './execute-tool-call.js';
import { prepareToolCall, type PrepareContext } from './prepare-tool-call.js';
import type { TurnTracing } from '../observability/turn-tracing.js';
import type { TurnHost } from './turn-host.js';
import type { TurnEvent } from './types.js';
import { dispatchCall } from './voice/dispatch-call.js';
import { maySpeak, RoundSpeech } from './voice/round-speech.js';
import { RoundCalls } from './voice/dedupe.js';
import { parseToolArguments } from './parse-tool-call.js';
import { append } from '../small-arrays.js';
import { LazySystemValues } from './session-state.js';
import { activateTasks } from './workflow/activate.js';
import { callTask } from './workflow/call-task.js';
import { hasTasks, NO_WORKFLOW_TOOLS, taskForTool, workflowTools } from './workflow/runtime.js';
import type { ExecutionIO } from './workflow/execution.js';
import type { ToolDefinition } from '../definition/types.js';
import type { HandlerSession } from '../handlers/types.js';
import type { TurnController } from './turn-signals.js';
import { NO_RESULTS, StreamedRound } from './streamed-round.js';

const NO_TOOLS: ReadonlyMap<string, ToolDefinition> = new Map();

/**
 * Runs one model call and starts its tool calls (the turn awaits `running`, then `end()` gives the
 * round's outcome). A model failure is in `error`; anything else thrown while
 * starting or running a call (a host handler or configuration fault, an engine bug) is rethrown as
 * it is, never wrapped as the model's: whose fault it is decides who can fix it.
 */
export async function runRound(
  host: TurnHost,
  turn: TurnController,
  emit: (event: TurnEvent) => void,
  tracing?: TurnTracing,
  /** A final answer after the tool rounds ran out: the model is shown no tool and may run none. */
  toolless = false,
): Promise<StreamedRound> {
  // Handed on (model, handlers); the round itself asks `turn.stopped`, a field, not the signal.
  const signal = turn.signal;
  // `vars.session.*`: computed only if a template of this round names them.
  const system = new LazySystemValues(host);
  const agentTools = host.activeTools();
  // Made when first needed: a final answer (every other round) makes no call and needs neither.
  let prepareCtx: PrepareContext | undefined;
  let execCtx: ExecuteContext | undefined;
  // Workflows (docs/workflows.md); without tasks none of this has anything to do.
  const workflows = hasTasks(agentTools);
  const workflowIO = workflows
    ? workflowExecutionIO(
        host,
        agentTools,
        (prepareCtx = prepareContext(host, agentTools, system)),
        (execCtx = executeContext(host, signal, emit)),
        emit,
      )
    : undefined;
  const activation =
    workflowIO === undefined
      ? NO_RESULTS
      : await activateTasks(
          host.state,
          agentTools,
          workflowIO,
          host.generateId,
          (r) => applyToolResult(host, r, emit),
          emit,
        );
  // The model may call only what it is shown (host.chatTools). Workflows are looked at once per
  // round, and not at all without tasks.
  const wf = workflows ? workflowTools(host.state, agentTools) : NO_WORKFLOW_TOOLS;
  const tools = toolless
    ? NO_TOOLS
    : wf.hidden.size === 0
      ? agentTools
      : without(agentTools, wf.hidden);
  const chatTools = toolless ? [] : host.chatTools(agentTools, system, wf);
  let modelPrepareCtx: PrepareContext | undefined;
  const messages = host.modelMessages(host.systemMessages(system, workflows));

  // Grown with `append`: most answers make one call or none.
  let calls: ModelToolCall[] = [];
  let finished: (ToolCallResult | undefined)[] = [];
  let pending: Promise<void>[] = [];
  let speech: RoundSpeech | undefined;
  // Made on the first call (a final answer has none).
  let started: RoundCalls | undefined;
  let flushed = 0;
  let seenIds: Set<string> | undefined;

  const flush = (): void => {
    for (let r = finished[flushed]; r !== undefined; r = finished[flushed]) {
      applyToolResult(host, r, emit);
      flushed++;
    }
  };

  const start = (raw: ModelToolCall): void => {
    started ??= new RoundCalls();
    prepareCtx ??= prepareContext(host, agentTools, system);
    execCtx ??= executeContext(host, signal, emit);
    // The ids seen are collected only from the second call on: most answers make one.
    if (calls.length > 0) seenIds ??= new Set(calls.map((c) => c.id));
    const id = raw.id === '' || seenIds?.has(raw.id) === true ? host.generateId() : raw.id;
    seenIds?.add(id);
    const call = id === raw.id ? raw : { ...raw, id };
    const index = calls.length;
    calls = append(calls, call);
    finished = append(finished, undefined);
    const startedAt = host.now();
    if (index >= host.limits.maxCallsPerAnswer) {
      // Over the cap: answered (this id once), never run, so one answer cannot fan out unbounded.
      emit({ type: 'tool-call', callId: call.id, tool: call.name, rawArguments: call.arguments });
      const refused = new ToolError(
        'too_many_calls',
        `this answer made more than ${host.limits.maxCallsPerAnswer} tool calls; this one was not run. Make fewer calls per answer.`,
        { maxCallsPerAnswer: host.limits.maxCallsPerAnswer },
      );
      pending = append(
        pending,
        executeToolCall(
          call,
          { ok: false, transform: [], error: refused },
          startedAt,
          execCtx,
        ).then((result) => {
          finished[index] = result;
          flush();
        }),
      );
      return;
    }
    const task = workflows ? taskForTool(host.state, agentTools, call.name) : undefined;
    if (task !== undefined && workflowIO !== undefined) {
      const parsed = parseToolArguments(call.arguments, host.limits);
      emit({
        type: 'tool-call',
        callId: call.id,
        tool: call.name,
        rawArguments: call.arguments,
        ...(parsed.ok ? { args: parsed.args } : {}),
      });
      const running = parsed.ok
        ? callTask({
            task,
            call,
            args: parsed.args,
            state: host.state,
            io: workflowIO,
            startedAt,
            now: host.now,
          })
        : executeToolCall(
            call,
            { ok: false, transform: [], error: parsed.error },
            startedAt,
            execCtx,
          );
      pending = append(
        pending,
        running.then((result) => {
          finished[index] = result;
          flush();
        }),
      );
      return;
    }
    // A call naming no tool is told every tool it was shown, generated ones included.
    modelPrepareCtx ??=
      tools === agentTools && wf.extra.length === 0
        ? prepareCtx
        : { ...prepareCtx, tools, generated: wf.extra.map((t) => t.function.name) };
    const prepared = prepareToolCall(call.name, call.arguments, modelPrepareCtx);
    // The round's speech schedule is made for the first call that may speak (most never do).
    const speaks = prepared.ok && maySpeak(prepared.tool, host.options.bridge);
    if (speaks)
      speech ??= new RoundSpeech({
        language: host.state.language,
        bridge: host.options.bridge,
        ledger: host.speech,
        emit,
        tracing,
      });
    // Events and trace records below are written out, not spread: made for every call.
    const args = prepared.args;
    emit(
      args === undefined
        ? { type: 'tool-call', callId: call.id, tool: call.name, rawArguments: call.arguments }
        : {
            type: 'tool-call',
            callId: call.id,
            tool: call.name,
            rawArguments: call.arguments,
            args,
          },
    );
    const trace = tracing?.toolCall(
      call.id,
      call.name,
      prepared.ok ? prepared.tool.type : undefined,
      prepared.ok ? prepared.tool.defaults.rules.length : 0,
      args,
    );
    pending = append(
      pending,
      dispatchCall({
        host,
        call,
        prepared,
        startedAt,
        execCtx,
        trace,
        speech: speaks ? speech : undefined,
        started,
      }).then((result) => {
        trace?.end(result.trace.errorCode, result.trace.output);
        finished[index] = result;
        flush();
      }),
    );
  };

  let text = '';
  let usage: ModelUsage = NO_USAGE;
  let error: ModelError | undefined;
  // Thrown by our side (starting a call) while the model streamed: not a model failure.
  let fault: { readonly error: unknown } | undefined;
  tracing?.modelStart();
  // The active agent's model (agents[x].model), else the session's.
  const model = host.activeModel();
  try {
    const modelId = host.options.modelId;
    const stream = model.stream(
      modelId === undefined
        ? { messages, tools: chatTools, signal }
        : { messages, tools: chatTools, signal, modelId },
    );
    for await (const part of stream) {
      if (turn.stopped || fault !== undefined) break;
      if (part.type !== 'finish') tracing?.modelPart(part.type === 'tool-call');
      switch (part.type) {
        case 'text-delta':
          if (part.text !== '') {
            text += part.text;
            emit({ type: 'text-delta', text: part.text });
          }
          break;
        case 'tool-call':
          try {
            start(part.call);
          } catch (err) {
            fault = { error: err };
          }
          break;
        case 'finish':
          if (part.usage !== undefined) usage = part.usage;
          break;
        default: {
          const _exhaustive: never = part;
          void _exhaustive;
        }
      }
    }
  } catch (err) {
    if (!turn.stopped) error = scrubbedModelError(asModelError(err, model.name), host.secrets());
  }
  // NO_USAGE itself is the answer that reported none (a script without usage, a server without it).
  tracing?.modelEnd(usage === NO_USAGE ? undefined : usage, error);
  if (fault !== undefined) {
    // The calls already started finish (or fail) first; nothing is left running behind the turn.
    await Promise.allSettled(pending);
    speech?.stop();
    throw fault.error;
  }
  // The round's calls are not awaited here: the round's frame (its locals, the model's stream)
  // would be held for as long as a call waits for a connection, a second or more in a burst,
  // and so be copied into the old generation (docs/performance-notes.md). The turn awaits them.
  return new StreamedRound(
    host,
    turn,
    text,
    usage,
    error,
    activation,
    speech,
    calls,
    finished,
    pending.length === 0 ? undefined : pending.length === 1 ? pending[0] : Promise.all(pending),
  );
}

function prepareContext(
  host: TurnHost,
  tools: ReadonlyMap<string, ToolDefinition>,
  system: PrepareContext['system'],
): PrepareContext {
  const toolDefaults = effectiveToolDefaults(host.options, host.state.agent);
  // Written out, not spread: made for every round that calls a tool.
  const ctx: { -readonly [K in keyof PrepareContext]: PrepareContext[K] } = {
    tools,
    limits: host.limits,
    vars: host.state.vars,
    system,
    onMissingTemplateValue: host.options.onMissingTemplateValue ?? 'skip',
  };
  if (toolDefaults !== undefined) ctx.toolDefaults = toolDefaults;
  return ctx;
}

function executeContext(
  host: TurnHost,
  signal: AbortSignal,
  emit: (event: TurnEvent) => void,
): ExecuteContext {
  const state = host.state;
  const languages = host.options.languages;
  // Written out, not spread: made for every round that calls a tool.
  const session: { -readonly [K in keyof HandlerSession]: HandlerSession[K] } = {
    id: state.id,
    language: state.language,
    vars: state.vars,
  };
  if (languages !== undefined) session.languages = languages;
  if (state.agent !== undefined) session.agent = state.agent;
  const ctx: { -readonly [K in keyof ExecuteContext]: ExecuteContext[K] } = {
    host,
    session,
    signal,
    emit,
    now: host.now,
  };
  if (host.journal !== undefined) ctx.journal = host.journal;
  const cap = host.options.toolTimeoutCapSecs;
  if (cap !== undefined) ctx.deadlineCapMs = cap * 1000;
  return ctx;
}

function without(
  tools: ReadonlyMap<string, ToolDefinition>,
  hidden: ReadonlySet<string>,
): ReadonlyMap<string, ToolDefinition> {
  const out = new Map<string, ToolDefinition>();
  for (const [name, def] of tools) if (!hidden.has(name)) out.set(name, def);
  return out;
}

/**
 * What workflow actions need from this round: session variables, and `call` running another tool
 * of the agent through the normal pipeline (a definition holding tasks is never callable).
 */
export function workflowExecutionIO(
  host: TurnHost,
  agentTools: ReadonlyMap<string, ToolDefinition>,
  prepareCtx: PrepareContext,
  execCtx: ExecuteContext,
  emit: (event: TurnEvent) => void,
): ExecutionIO {
  let callable: ReadonlyMap<string, ToolDefinition> | undefined;
  return {
    vars: host.state.vars,
    system: prepareCtx.system.get(),
    callTool: (name, args) => {
      const call: ModelToolCall = { id: host.generateId(), name, arguments: JSON.stringify(args) };
      const startedAt = host.now();
      callable ??= new Map([...agentTools].filter(([, def]) => def.tasks.length === 0));
      const prepared = prepareToolCall(name, call.arguments, { ...prepareCtx, tools: callable });
      emit({
        type: 'tool-call',
        callId: call.id,
        tool: name,
        rawArguments: call.arguments,
        ...(prepared.args === undefined ? {} : { args: prepared.args }),
      });
      return executeToolCall(call, prepared, startedAt, execCtx);
    },
  };
}

/** A model error with the session's secrets scrubbed from its message (a server may echo a key). */
function scrubbedModelError(error: ModelError, secrets: SecretSet): ModelError {
  return withScrubbedMessage(error, secrets.scrubText(error.message));
}
