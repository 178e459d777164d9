// Pipelines: concurrency of independent steps, references that resolve to nothing, step
// deadlines, which failures are retried, and stopping a run.
import { describe, expect, it, vi } from 'vitest';
import { createSymphony, loadSymphony } from '../../src/entries/symphony.js';
import type { ActionHandler } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing.js';

const tool = (name: string) => ({ name, config: { inputSchema: { type: 'object' } } });

async function pipeline(
  steps: unknown[],
  actions: Record<string, ActionHandler>,
  extra: Record<string, unknown> = {},
) {
  const config = await loadSymphony({
    source: { tools: Object.keys(actions).map(tool), pipelines: [{ name: 'p', steps, ...extra }] },
  });
  const delays: number[] = [];
  const s = createSymphony({
    config,
    model: new ScriptedModel([]),
    actions,
    _internal: { sleep: async (ms) => void delays.push(ms) },
  });
  return { s, delays };
}

const signalled = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
};

describe('Symphony pipelines', () => {
  it('steps with no dependency between them run at the same time; a dependent waits for both', async () => {
    const a = signalled();
    const b = signalled();
    const order: string[] = [];
    const { s } = await pipeline(
      [
        { id: 'a', type: 'tool', tool: 'left' },
        { id: 'b', type: 'tool', tool: 'right' },
        { id: 'c', type: 'tool', tool: 'join', dependencies: ['a', 'b'] },
      ],
      {
        // Each waits for the other to have started: run one after the other, they would never end.
        left: async () => {
          a.open();
          await b.opened;
          order.push('left');
          return 1;
        },
        right: async () => {
          b.open();
          await a.opened;
          order.push('right');
          return 2;
        },
        join: () => {
          order.push('join');
          return 3;
        },
      },
    );
    const r = await s.runPipeline({ pipeline: 'p' });
    expect(r.success).toBe(true);
    expect(order.slice(2)).toEqual(['join']);
  });

  it('an @step path that is not there fails the step with missing_input, naming the path', async () => {
    const { s } = await pipeline(
      [
        { id: 'a', type: 'tool', tool: 'first' },
        {
          id: 'b',
          type: 'tool',
          tool: 'second',
          dependencies: ['a'],
          inputs: { x: '@a.result.items.3' },
        },
      ],
      { first: () => ({ items: [1] }), second: () => 'never' },
    );
    const r = await s.runPipeline({ pipeline: 'p' });
    expect(r.steps[1]).toMatchObject({
      status: 'failed',
      attempts: 0,
      errorCode: 'missing_input',
      error: 'steps.b.inputs.x: @a.result.items.3 — step a has no .result.items.3',
    });
  });

  it('an output path that is not there fails the step with missing_output', async () => {
    const { s } = await pipeline(
      [{ id: 'a', type: 'tool', tool: 'first', outputs: { v: '.result.nope' } }],
      { first: () => ({ x: 1 }) },
    );
    const r = await s.runPipeline({ pipeline: 'p' });
    expect(r.steps[0]).toMatchObject({
      status: 'failed',
      errorCode: 'missing_output',
      error: "outputs.v: the step's result has no .result.nope",
    });
    expect(r.variables).toEqual({});
  });

  it('a literal string is passed as written; only whole $name / @id.path strings are references', async () => {
    const seen: unknown[] = [];
    const { s } = await pipeline(
      [
        {
          id: 'a',
          type: 'tool',
          tool: 'echo',
          inputs: { price: '$5 off', mail: 'me@example.com', n: '$n', list: ['$n', 2] },
        },
      ],
      { echo: (args) => seen.push(args) },
      { variables: { n: 7 } },
    );
    await s.runPipeline({ pipeline: 'p' });
    expect(seen).toEqual([{ price: '$5 off', mail: 'me@example.com', n: 7, list: [7, 2] }]);
  });

  it('a step past its timeout fails with timeout', async () => {
    vi.useFakeTimers();
    try {
      const { s } = await pipeline([{ id: 'a', type: 'tool', tool: 'slow', timeout: 1000 }], {
        slow: () => new Promise(() => undefined),
      });
      const run = s.runPipeline({ pipeline: 'p' });
      await vi.advanceTimersByTimeAsync(1000);
      expect((await run).steps[0]).toMatchObject({
        status: 'failed',
        errorCode: 'timeout',
        error: 'step a did not finish within 1000 ms',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a failure outside retryableErrors is not retried; `enabled: false` turns retries off', async () => {
    const failing = vi.fn(() => ({ success: false, error: 'bad input' }));
    const { s, delays } = await pipeline(
      [
        {
          id: 'a',
          type: 'tool',
          tool: 'f',
          retryConfig: { maxAttempts: 3, retryableErrors: ['timeout'] },
        },
        { id: 'b', type: 'tool', tool: 'f', retryConfig: { enabled: false, maxAttempts: 3 } },
      ],
      { f: failing },
      { errorStrategy: 'continue' },
    );
    const r = await s.runPipeline({ pipeline: 'p' });
    expect(r.steps.map((x) => x.attempts)).toEqual([1, 1]);
    expect(failing).toHaveBeenCalledTimes(2);
    expect(delays).toEqual([]);
  });

  it('retryableErrors also match a part of the message', async () => {
    const f = vi
      .fn()
      .mockReturnValueOnce({ success: false, error: 'HTTP 503 from storage' })
      .mockReturnValue('ok');
    const { s } = await pipeline(
      [
        {
          id: 'a',
          type: 'tool',
          tool: 'f',
          retryConfig: { maxAttempts: 2, retryableErrors: ['503'] },
        },
      ],
      { f },
    );
    expect((await s.runPipeline({ pipeline: 'p' })).steps[0]).toMatchObject({
      status: 'succeeded',
      attempts: 2,
    });
  });

  it('aborting the run stops it: the running step is cancelled and the rest skipped', async () => {
    const controller = new AbortController();
    const { s } = await pipeline(
      [
        { id: 'a', type: 'tool', tool: 'hold' },
        { id: 'b', type: 'tool', tool: 'hold', dependencies: ['a'] },
      ],
      {
        hold: (_args, ctx) =>
          new Promise((_, reject) => {
            ctx.signal.addEventListener('abort', () => reject(new Error('stopped')));
            controller.abort();
          }),
      },
    );
    const r = await s.runPipeline({ pipeline: 'p', signal: controller.signal });
    expect(r.success).toBe(false);
    expect(r.steps.map((x) => x.status)).toEqual(['failed', 'skipped']);
  });

  it("an unknown pipeline is the caller's TypeError, naming the pipelines", async () => {
    const { s } = await pipeline([{ id: 'a', type: 'tool', tool: 'f' }], { f: () => 1 });
    await expect(s.runPipeline({ pipeline: 'q' })).rejects.toThrow(
      'no pipeline named "q" (pipelines: p)',
    );
  });
});
