import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../src/errors.js';
import { createActionHandler } from '../../src/handlers/action-handler.js';
import { actionResult, isActionResult } from '../../src/handlers/action-result.js';
import type { ActionContext, ActionHandler, HandlerOutcome } from '../../src/handlers/types.js';
import { makeContext, makeTool } from './helpers.js';

function run(
  actions: Record<string, ActionHandler>,
  tool = makeTool({ name: 'act' }),
  args: Record<string, unknown> = {},
  timeoutSecs?: number,
): Promise<HandlerOutcome> {
  const handler = createActionHandler({
    actions: new Map(Object.entries(actions)),
    ...(timeoutSecs === undefined ? {} : { timeoutSecs }),
  });
  return handler.execute(args, makeContext(tool));
}

describe('action handler', () => {
  it('prefers the handler value, then the definition result, then {"status":"ok"}', async () => {
    const withResult = makeTool({ name: 'act', result: { from: 'definition' } });
    expect(await run({ act: () => ({ from: 'handler' }) }, withResult)).toMatchObject({
      type: 'success',
      output: { from: 'handler' },
    });
    expect(await run({ act: () => undefined }, withResult)).toMatchObject({
      type: 'success',
      output: { from: 'definition' },
    });
    expect(await run({ act: async () => undefined })).toMatchObject({
      type: 'success',
      output: { status: 'ok' },
    });
    expect(await run({}, withResult)).toMatchObject({
      type: 'success',
      output: { from: 'definition' },
    });
  });

  it('no handler and no result → not_available "action X is not available"', async () => {
    const out = await run({}, makeTool({ name: 'hangup' }));
    expect(out.type === 'error' && out.error.code).toBe('not_available');
    expect(out.type === 'error' && out.error.message).toBe('action hangup is not available');
  });

  it('a definition result is copied, never shared', async () => {
    const tool = makeTool({ name: 'act', result: { list: [1] } });
    const out = await run({}, tool);
    (out.type === 'success' ? (out.output as { list: number[] }).list : []).push(2);
    expect(tool.result).toEqual({ list: [1] });
  });

  it('gives the host handler args, tool name, call id, session and a signal', async () => {
    let seen: ActionContext | undefined;
    await run({ act: (_a, ctx) => void (seen = ctx) }, makeTool({ name: 'act' }), { x: 1 });
    expect(seen?.tool).toBe('act');
    expect(seen?.callId).toBe('call_1');
    expect(seen?.session.id).toBe('sess_1');
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
  });

  it('actionResult → set-vars, say, handoff, end-session effects and the result', async () => {
    const out = await run({
      act: () =>
        actionResult({
          result: { transferred: true },
          vars: { 'vars.x': 1 },
          say: 'One moment',
          handoff: 'billing',
          endSession: { reason: 'done' },
        }),
    });
    expect(out).toMatchObject({
      type: 'success',
      output: { transferred: true },
      effects: [
        { type: 'set-vars', vars: { 'vars.x': 1 } },
        { type: 'say', text: 'One moment' },
        { type: 'handoff', agent: 'billing' },
        { type: 'end-session', reason: 'done' },
      ],
    });
    const ended = await run({ act: () => actionResult({ endSession: true }) });
    expect(ended).toMatchObject({ output: { status: 'ok' }, effects: [{ type: 'end-session' }] });
  });

  it("an actionResult without a result returns the definition's result", async () => {
    const tool = makeTool({ name: 'act', result: { booked: true } });
    const out = await run({ act: () => actionResult({ say: 'Done' }) }, tool);
    expect(out).toMatchObject({
      type: 'success',
      output: { booked: true },
      effects: [{ type: 'say', text: 'Done' }],
    });
  });

  it('an empty say adds no say effect', async () => {
    const out = await run({ act: () => actionResult({ say: '', vars: { 'vars.x': 1 } }) });
    expect(out).toMatchObject({ effects: [{ type: 'set-vars', vars: { 'vars.x': 1 } }] });
    expect(out.type === 'success' && out.effects).toHaveLength(1);
  });

  it('a result with success false is handler_error saying its error, else its message', async () => {
    const both = await run({
      act: () => ({ success: false, error: 'card declined', message: 'try later' }),
    });
    expect(both.type === 'error' && both.error).toMatchObject({
      code: 'handler_error',
      message: 'card declined',
      details: { result: { success: false, error: 'card declined', message: 'try later' } },
    });
    const message = await run({ act: () => ({ success: false, error: '', message: 'try later' }) });
    expect(message.type === 'error' && message.error.message).toBe('try later');
    const bare = await run({ act: () => ({ success: false }) });
    expect(bare.type === 'error' && bare.error.message).toBe('action act reported failure');
  });

  it('an actionResult reporting failure keeps its effects (the apology is still said)', async () => {
    const out = await run({
      act: () => actionResult({ result: { success: false, error: 'no slot' }, say: 'Sorry' }),
    });
    expect(out).toMatchObject({
      type: 'error',
      error: { code: 'handler_error', message: 'no slot' },
      effects: [{ type: 'say', text: 'Sorry' }],
    });
  });

  it('a plain object that looks like an ActionResult is just a value', async () => {
    const plain = { result: 1, handoff: 'evil', endSession: true };
    expect(isActionResult(plain)).toBe(false);
    const out = await run({ act: () => plain });
    expect(out).toMatchObject({ type: 'success', output: plain, effects: [] });
  });

  it('a throwing handler → handler_error with a short message and no stack', async () => {
    const out = await run({
      act: () => {
        throw new Error('printer on fire\n    at secretFunction (/srv/app.js:1:1)');
      },
    });
    expect(out.type === 'error' && out.error.code).toBe('handler_error');
    expect(out.type === 'error' && out.error.message).toBe('action act failed: printer on fire');
    const rejected = await run({ act: () => Promise.reject(new Error('x'.repeat(1000))) });
    expect(rejected.type === 'error' && rejected.error.message.length).toBeLessThan(260);
    const weird = await run({ act: () => Promise.reject(42 as unknown as Error) });
    expect(weird.type === 'error' && weird.error.code).toBe('handler_error');
  });

  it('a handler that throws a ToolError keeps its code, message and details', async () => {
    const out = await run({
      act: () =>
        Promise.reject(new ToolError('mcp_server_failed', 'server gone', { server: 'crm' })),
    });
    expect(out.type === 'error' && out.error.toJSON()).toEqual({
      error: { code: 'mcp_server_failed', message: 'server gone', server: 'crm' },
    });
  });

  it('a call cancelled before it starts is cancelled without running the host function', async () => {
    let ran = false;
    const handler = createActionHandler({
      actions: new Map([['act', () => ((ran = true), { done: true })]]),
    });
    const controller = new AbortController();
    controller.abort();
    const out = await handler.execute(
      {},
      makeContext(makeTool({ name: 'act' }), { signal: controller.signal }),
    );
    expect(out.type === 'error' && out.error.code).toBe('cancelled');
    expect(ran).toBe(false);
  });

  it('a handler past its deadline → timeout, and its signal is aborted', async () => {
    let signal: AbortSignal | undefined;
    const out = await run(
      { act: (_a, ctx) => ((signal = ctx.signal), new Promise(() => undefined)) },
      makeTool({ name: 'act' }),
      {},
      0.2,
    );
    expect(out.type === 'error' && out.error.code).toBe('timeout');
    expect(signal?.aborted).toBe(true);
  });

  it('a tool named like an Object.prototype member is looked up like any other', async () => {
    const out = await run({}, makeTool({ name: 'constructor' }));
    expect(out.type === 'error' && out.error.code).toBe('not_available');
    const own = await run({ toString: () => 'mine' }, makeTool({ name: 'toString' }));
    expect(own).toMatchObject({ type: 'success', output: 'mine' });
  });
});

describe("the host function's signal", () => {
  const hold = (): Promise<never> => new Promise<never>(() => undefined);

  it('read first after a timeout: already aborted, with the timeout as reason', async () => {
    let ctx: ActionContext | undefined;
    const out = await run(
      { act: (_a, c) => ((ctx = c), hold()) },
      makeTool({ name: 'act' }),
      {},
      0.05,
    );
    expect(out.type === 'error' && out.error.code).toBe('timeout');
    expect(ctx?.signal.aborted).toBe(true);
    expect(ctx?.signal.reason).toMatchObject({ code: 'timeout' });
    expect(ctx?.signal).toBe(ctx?.signal); // one signal, however often it is read
  });

  it('read after a normal end: never aborted', async () => {
    let ctx: ActionContext | undefined;
    await run({ act: (_a, c) => void (ctx = c) }, makeTool({ name: 'act' }), {}, 0.05);
    await new Promise((r) => setTimeout(r, 100)); // past the deadline it had
    expect(ctx?.signal.aborted).toBe(false);
  });

  it("the caller's cancel aborts it with the caller's reason → cancelled", async () => {
    const caller = new AbortController();
    let signal: AbortSignal | undefined;
    const handler = createActionHandler({
      actions: new Map([['act', (_a: unknown, c: ActionContext) => ((signal = c.signal), hold())]]),
    });
    const running = handler.execute(
      {},
      makeContext(makeTool({ name: 'act' }), { signal: caller.signal }),
    );
    await new Promise((r) => setImmediate(r));
    expect(signal?.aborted).toBe(false);
    caller.abort(new Error('barge-in'));
    const out = await running;
    expect(out.type === 'error' && out.error.code).toBe('cancelled');
    expect(signal?.aborted).toBe(true);
    expect((signal?.reason as Error).message).toBe('barge-in');
  });

  it('the context carries tool, callId and session as its own fields', async () => {
    let ctx: ActionContext | undefined;
    await run({ act: (_a, c) => void (ctx = c) });
    expect(Object.keys(ctx ?? {})).toEqual(['tool', 'callId', 'session']);
    expect(ctx?.signal).toBeInstanceOf(AbortSignal);
  });

  it('twenty calls at once on one caller signal add one listener to it, and none stay', async () => {
    const caller = new AbortController();
    const handler = createActionHandler({
      actions: new Map([['act', (_a: unknown, c: ActionContext) => c.signal.aborted]]),
    });
    const context = makeContext(makeTool({ name: 'act' }), { signal: caller.signal });
    const calls = Array.from({ length: 20 }, () => handler.execute({}, context));
    expect(getEventListeners(caller.signal, 'abort').length).toBeLessThanOrEqual(1);
    const outs = await Promise.all(calls);
    expect(outs.every((o) => o.type === 'success' && o.output === false)).toBe(true);
    caller.abort();
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});
