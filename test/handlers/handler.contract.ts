/**
 * The contract every handler must meet, run against each implementation (one *.test.ts per
 * handler calls {@link runHandlerContract}): outcome shape, typed errors (never a throw),
 * cancellation through the AbortSignal, and timing.
 */
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../src/errors.js';
import type { ToolDefinition } from '../../src/definition/types.js';
import type { Handler, HandlerOutcome } from '../../src/handlers/types.js';
import { makeContext } from './helpers.js';

/** How a handler under test is exercised. */
export interface ContractSubject {
  readonly kind: Handler['kind'];
  /** A fresh handler (closed afterwards with `close` when present). */
  readonly create: () => Handler & { close?: () => Promise<void> };
  /** A tool and arguments that succeed. */
  readonly success: () => { tool: ToolDefinition; args: Record<string, unknown> };
  /** A tool and arguments that fail with a tool error of `code`. */
  readonly failure: () => {
    tool: ToolDefinition;
    args: Record<string, unknown>;
    code: string;
    signal?: AbortSignal;
  };
  /** A tool and arguments that take long enough to be cancelled mid-way (absent: pre-aborted only). */
  readonly slow?: () => { tool: ToolDefinition; args: Record<string, unknown> };
}

function expectShape(out: HandlerOutcome): void {
  expect(['success', 'error']).toContain(out.type);
  expect(Array.isArray(out.effects)).toBe(true);
  expect(Array.isArray(out.requests)).toBe(true);
  expect(Number.isFinite(out.startedAt)).toBe(true);
  expect(out.endedAt).toBeGreaterThanOrEqual(out.startedAt);
  expect(out.durationMs).toBe(out.endedAt - out.startedAt);
  if (out.type === 'success') expect(() => JSON.stringify(out.output)).not.toThrow();
  else expect(out.error).toBeInstanceOf(ToolError);
}

async function withHandler<T>(
  subject: ContractSubject,
  fn: (h: Handler) => Promise<T>,
): Promise<T> {
  const handler = subject.create();
  try {
    return await fn(handler);
  } finally {
    await handler.close?.();
  }
}

/** Registers the contract tests for one handler. */
export function runHandlerContract(subject: ContractSubject): void {
  describe(`${subject.kind} handler contract`, () => {
    it('reports its kind', async () => {
      await withHandler(subject, async (h) => expect(h.kind).toBe(subject.kind));
    });

    it('returns a well-formed success outcome with timing', async () => {
      await withHandler(subject, async (h) => {
        const { tool, args } = subject.success();
        const before = Date.now();
        const out = await h.execute(args, makeContext(tool));
        expectShape(out);
        expect(out.type).toBe('success');
        expect(out.startedAt).toBeGreaterThanOrEqual(before - 1);
        expect(out.endedAt).toBeLessThanOrEqual(Date.now() + 1);
      });
    });

    it('returns a typed error outcome instead of throwing', async () => {
      await withHandler(subject, async (h) => {
        const { tool, args, code, signal } = subject.failure();
        const out = await h.execute(
          args,
          makeContext(tool, signal === undefined ? {} : { signal }),
        );
        expectShape(out);
        expect(out.type === 'error' && out.error.code).toBe(code);
        expect(out.type === 'error' && out.error.toJSON().error.code).toBe(code);
      });
    });

    it('never mutates the arguments', async () => {
      await withHandler(subject, async (h) => {
        const { tool, args } = subject.success();
        const frozen = structuredClone(args);
        await h.execute(Object.freeze(args), makeContext(tool));
        expect(args).toEqual(frozen);
      });
    });

    it('an already-aborted signal → cancelled', async () => {
      await withHandler(subject, async (h) => {
        const { tool, args } = subject.slow?.() ?? subject.success();
        const controller = new AbortController();
        controller.abort();
        const out = await h.execute(args, makeContext(tool, { signal: controller.signal }));
        expectShape(out);
        expect(out.type === 'error' && out.error.code).toBe('cancelled');
      });
    });

    if (subject.slow !== undefined) {
      const slow = subject.slow;
      it('aborting mid-way → cancelled, promptly', async () => {
        await withHandler(subject, async (h) => {
          const { tool, args } = slow();
          const controller = new AbortController();
          setTimeout(() => controller.abort(), 50);
          const out = await h.execute(args, makeContext(tool, { signal: controller.signal }));
          expectShape(out);
          // `cancelled`, never the slow call's own end: the abort ended it (no time bound, which
          // a loaded machine would break without telling more).
          expect(out.type === 'error' && out.error.code).toBe('cancelled');
        });
      });
    }
  });
}
