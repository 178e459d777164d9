// executeToolCall on its own: a call safe to cancel never reaches its handler once the turn's
// signal has aborted (a workflow's `call` or a late dispatch after a barge-in would otherwise
// send a lookup whose answer nobody reads).
import { describe, expect, it } from 'vitest';
import type { Handler, HandlerOutcome } from '../../src/handlers/types.js';
import { executeToolCall, type ExecuteContext } from '../../src/session/execute-tool-call.js';
import type { TurnEvent } from '../../src/session/types.js';
import { miniTool } from './helpers.js';

function context(signal: AbortSignal, handler: Handler): ExecuteContext {
  return {
    host: { handlerFor: () => handler, hasAgent: () => false },
    session: { id: 's', language: 'en-US', vars: {} },
    signal,
    emit: (_event: TurnEvent) => undefined,
    now: () => 0,
  };
}

describe('executeToolCall', () => {
  it('answers a call safe to cancel `cancelled` without calling its handler once the signal aborted', async () => {
    let called = 0;
    const handler: Handler = {
      kind: 'endpoint',
      execute: (): Promise<HandlerOutcome> => {
        called++;
        return Promise.resolve({
          type: 'success',
          output: { ok: true },
          effects: [],
          requests: [],
          startedAt: 0,
          endedAt: 0,
          durationMs: 0,
        });
      },
    };
    const tool = miniTool({ name: 'lookup', type: 'endpoint', method: 'get' });
    const controller = new AbortController();
    controller.abort();
    const call = { id: 'c1', name: 'lookup', arguments: '{}' };
    const prepared = { ok: true as const, tool, args: {}, transform: [] };
    const result = await executeToolCall(call, prepared, 0, context(controller.signal, handler));
    expect(called).toBe(0);
    expect(result.trace.errorCode).toBe('cancelled');
    // The same call under a live signal does reach its handler (the check above is not vacuous).
    await executeToolCall(call, prepared, 0, context(new AbortController().signal, handler));
    expect(called).toBe(1);
  });
});
