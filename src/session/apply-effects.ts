/**
 * Applies one finished tool call to the session, in call order: its `tool-result` / `tool-error`
 * event first, then its effects (language, say, variables, log, handoff, end of session), each
 * with its event. Handlers only describe effects; this is the one place that performs them.
 */
import { isRetryableToolError } from './failures.js';
import type { ToolCallResult } from './execute-tool-call.js';
import { assignVars } from './session-state.js';
import type { TurnHost } from './turn-host.js';
import type { TurnEvent } from './types.js';
import { spokenErrorFor } from './voice/spoken-errors.js';

/** Emits the call's result event and applies its effects. */
export function applyToolResult(
  host: TurnHost,
  result: ToolCallResult,
  emit: (event: TurnEvent) => void,
): void {
  for (const inner of result.nested ?? []) applyToolResult(host, inner, emit);
  const { trace } = result;
  const durationSecs = trace.duration_secs;
  if (trace.isError) {
    const err = trace.output as { error?: { message?: unknown } };
    emit({
      type: 'tool-error',
      callId: trace.callId,
      tool: trace.tool,
      code: trace.errorCode ?? 'handler_error',
      message: typeof err.error?.message === 'string' ? err.error.message : 'tool error',
      durationSecs,
      retryable: isRetryableToolError(trace.errorCode ?? 'handler_error'),
    });
    const tool = host.options.tools.tools.get(trace.tool);
    const spoken =
      tool === undefined
        ? undefined
        : spokenErrorFor({
            tool,
            trace,
            language: host.state.language,
            vars: host.state.vars,
            system: host.systemValues(),
          });
    if (spoken !== undefined)
      emit({ type: 'say', text: spoken, source: 'error', tool: trace.tool });
  } else {
    // Written out, not spread: made for every call.
    emit(
      trace.propagate === true
        ? {
            type: 'tool-result',
            callId: trace.callId,
            tool: trace.tool,
            output: trace.output,
            durationSecs,
            propagate: true,
          }
        : {
            type: 'tool-result',
            callId: trace.callId,
            tool: trace.tool,
            output: trace.output,
            durationSecs,
          },
    );
  }
  const state = host.state;
  for (const effect of result.effects) {
    switch (effect.type) {
      case 'language':
        if (effect.to !== state.language) {
          const from = state.language;
          state.language = effect.to;
          emit({ type: 'language', from, to: effect.to });
        }
        break;
      case 'say':
        emit({ type: 'say', text: effect.text, source: 'tool', tool: trace.tool });
        break;
      case 'set-vars':
        assignVars(state.vars, effect.vars);
        emit({ type: 'vars', vars: effect.vars });
        break;
      case 'log':
        emit({ type: 'log', tool: trace.tool, args: { ...effect.args } });
        break;
      case 'handoff':
        if (effect.agent !== state.agent) {
          const from = state.agent ?? '';
          state.agent = effect.agent;
          emit({
            type: 'handoff',
            from,
            to: effect.agent,
            ...(effect.reason === undefined ? {} : { reason: effect.reason }),
          });
        }
        break;
      case 'workflow':
        emit({
          type: 'workflow',
          workflow: effect.workflow,
          status: effect.status,
          ...(effect.step === undefined ? {} : { step: effect.step }),
        });
        break;
      case 'end-session':
        state.ended = true;
        host.endReason ??= effect.reason ?? `${trace.tool} ended the session`;
        break;
      default: {
        const _exhaustive: never = effect;
        void _exhaustive;
      }
    }
  }
}
