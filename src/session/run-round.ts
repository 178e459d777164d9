/**
 * One round of a turn: one model call, streamed, and the tool calls of its answer. Each call
 * starts as soon as the stream delivers it (so parallel calls overlap with the rest of the
 * stream); results are applied and appended to history in call order; every tool call id gets
 * exactly one tool message, also after a model error or an interruption.
 */
import type { ChatMessage, ModelToolCall, ModelUsage } from '../models/types.js';
import { effectiveToolDefaults } from './check-options.js';
import { asModelError, type ModelError } from '../models/errors.js';
import { applyToolResult } from './apply-effects.js';
import {
  bridgePhrasesFor,
  startBridge,
  DEFAULT_BRIDGE_THRESHOLD_SECS,
  type BridgeCandidate,
} from './bridge.js';
import { executeToolCall, type ExecuteContext, type ToolCallResult } from './execute-tool-call.js';
import { prepareToolCall, type PrepareContext } from './prepare-tool-call.js';
import type { TurnHost } from './turn-host.js';
import type { SessionEvent } from './types.js';

/** What one round produced. */
export interface RoundOutcome {
  /** The text of the model's answer (possibly partial when interrupted). */
  readonly text: string;
  /** Finished calls, in call order. */
  readonly results: readonly ToolCallResult[];
  readonly usage: ModelUsage;
  readonly interrupted: boolean;
  readonly error?: ModelError;
}

/** Runs one model call and its tool calls. Never throws; a model failure is in `error`. */
export async function runRound(
  host: TurnHost,
  signal: AbortSignal,
  emit: (event: SessionEvent) => void,
): Promise<RoundOutcome> {
  const system = host.systemValues();
  const tools = host.activeTools();
  const messages: ChatMessage[] = [...host.systemMessages(system), ...host.state.history];
  const chatTools = host.chatTools(tools, system);

  const toolDefaults = effectiveToolDefaults(host.options, host.state.agent);
  const prepareCtx: PrepareContext = {
    tools,
    limits: host.limits,
    vars: host.state.vars,
    system,
    ...(toolDefaults === undefined ? {} : { toolDefaults }),
    onMissingTemplateValue: host.options.onMissingTemplateValue ?? 'skip',
  };
  const execCtx: ExecuteContext = {
    handlerFor: (type) => host.handlerFor(type),
    session: {
      id: host.state.id,
      language: host.state.language,
      ...(host.options.languages === undefined ? {} : { languages: host.options.languages }),
      vars: host.state.vars,
      ...(host.state.agent === undefined ? {} : { agent: host.state.agent }),
    },
    signal,
    emit,
    now: host.now,
    hasAgent: (name) => host.hasAgent(name),
  };

  const calls: ModelToolCall[] = [];
  const finished: (ToolCallResult | undefined)[] = [];
  const pending: Promise<void>[] = [];
  const bridgeCandidates: BridgeCandidate[] = [];
  let bridge: { stop(): void } | undefined;
  let flushed = 0;
  const seenIds = new Set<string>();

  const flush = (): void => {
    for (let r = finished[flushed]; r !== undefined; r = finished[flushed]) {
      applyToolResult(host, r, emit);
      flushed++;
    }
  };

  const start = (raw: ModelToolCall): void => {
    const id = raw.id === '' || seenIds.has(raw.id) ? host.generateId() : raw.id;
    seenIds.add(id);
    const call = id === raw.id ? raw : { ...raw, id };
    const index = calls.length;
    calls.push(call);
    finished.push(undefined);
    const startedAt = host.now();
    const prepared = prepareToolCall(call.name, call.arguments, prepareCtx);
    emit({
      type: 'tool-call',
      callId: call.id,
      tool: call.name,
      rawArguments: call.arguments,
      ...(prepared.args === undefined ? {} : { args: prepared.args }),
    });
    let done = false;
    if (prepared.ok) {
      const phrases = bridgePhrasesFor(prepared.tool, host.state.language, host.options.bridge);
      if (phrases !== undefined) {
        bridgeCandidates.push({ tool: call.name, phrases, done: () => done });
        bridge ??= startBridge({
          thresholdSecs: host.options.bridge?.thresholdSecs ?? DEFAULT_BRIDGE_THRESHOLD_SECS,
          candidates: () => bridgeCandidates,
          say: (text, tool) => emit({ type: 'say', text, source: 'bridge', tool }),
        });
      }
    }
    pending.push(
      executeToolCall(call, prepared, startedAt, execCtx).then((result) => {
        done = true;
        finished[index] = result;
        flush();
      }),
    );
  };

  let text = '';
  let usage: ModelUsage = { inputTokens: 0, outputTokens: 0 };
  let error: ModelError | undefined;
  try {
    const stream = host.options.model.stream({ messages, tools: chatTools, signal });
    for await (const part of stream) {
      if (signal.aborted) break;
      switch (part.type) {
        case 'text-delta':
          if (part.text !== '') {
            text += part.text;
            emit({ type: 'text-delta', text: part.text });
          }
          break;
        case 'tool-call':
          start(part.call);
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
    if (!signal.aborted) error = asModelError(err, host.options.model.name);
  }
  await Promise.all(pending);
  bridge?.stop();

  if (text !== '' || calls.length > 0) {
    host.state.history.push({
      role: 'assistant',
      content: text === '' ? null : text,
      ...(calls.length === 0
        ? {}
        : {
            tool_calls: calls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: c.name, arguments: c.arguments },
            })),
          }),
    });
  }
  const results: ToolCallResult[] = [];
  for (const r of finished) {
    if (r === undefined) continue;
    results.push(r);
    host.state.history.push({ role: 'tool', tool_call_id: r.call.id, content: r.content });
  }
  return {
    text,
    results,
    usage,
    interrupted: signal.aborted,
    ...(error === undefined ? {} : { error }),
  };
}
