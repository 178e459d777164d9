/**
 * ResponseBuffer: one Realtime response as the turn reads it. Its bounds are exact (what the docs
 * state is accepted, one more is not), replays count toward them, and action calls wait for the
 * response's end.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_RESPONSE_CALLS,
  MAX_RESPONSE_CHARS,
  ResponseBuffer,
} from '../../src/realtime/response-buffer.js';
import type { ModelStreamPart } from '../../src/models/types.js';

const buffer = (holds: (name: string) => boolean = () => false) =>
  new ResponseBuffer({ id: 'resp_1', owner: 'server', holds });

async function drain(b: ResponseBuffer): Promise<ModelStreamPart[]> {
  const parts: ModelStreamPart[] = [];
  for await (const part of b.read(new AbortController().signal)) parts.push(part);
  return parts;
}

describe('ResponseBuffer bounds', () => {
  it(`carries exactly ${MAX_RESPONSE_CALLS} calls; one more fails the response`, async () => {
    const full = buffer();
    for (let i = 0; i < MAX_RESPONSE_CALLS; i++)
      expect(full.call(`c_${i}`, 'note', '{}')).toBe(true);
    full.finish(undefined);
    expect((await drain(full)).filter((p) => p.type === 'tool-call')).toHaveLength(
      MAX_RESPONSE_CALLS,
    );

    const over = buffer();
    for (let i = 0; i < MAX_RESPONSE_CALLS; i++) over.call(`c_${i}`, 'note', '{}');
    expect(over.call('c_last', 'note', '{}')).toBe(false);
    expect(over.kept).toBe(0);
    await expect(drain(over)).rejects.toMatchObject({ code: 'bad_response' });
  });

  it(`carries exactly ${MAX_RESPONSE_CHARS} characters; one more fails the response`, async () => {
    const full = buffer();
    expect(full.text('x'.repeat(MAX_RESPONSE_CHARS - 10))).toBe(true);
    expect(full.text('y'.repeat(10))).toBe(true);
    full.finish(undefined);
    await expect(drain(full)).resolves.toHaveLength(3);

    const over = buffer();
    expect(over.text('x'.repeat(MAX_RESPONSE_CHARS))).toBe(true);
    expect(over.text('y')).toBe(false);
    await expect(drain(over)).rejects.toMatchObject({ code: 'bad_response' });
  });

  it("counts a call's name with its arguments", async () => {
    const b = buffer();
    expect(b.text('x'.repeat(MAX_RESPONSE_CHARS - 10))).toBe(true);
    // 11 characters of name and no arguments: one past the bound.
    expect(b.call('c_1', 'n'.repeat(11), '')).toBe(false);
    await expect(drain(b)).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('characters'),
    });
  });

  it('counts replayed call ids toward the call bound', async () => {
    const b = buffer();
    for (let i = 0; i < MAX_RESPONSE_CALLS; i++) expect(b.skip(`old_${i}`)).toBe(true);
    expect(b.has('old_0')).toBe(true);
    // A replay of every id ever seen cannot grow one response without bound.
    expect(b.skip('old_more')).toBe(false);
    await expect(drain(b)).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringContaining('function calls'),
    });
  });
});

describe('ResponseBuffer holds action calls', () => {
  it("an action call is read only at the response's end, after everything else", async () => {
    const b = buffer((name) => name === 'hangup');
    const parts: ModelStreamPart[] = [];
    const reading = (async () => {
      for await (const part of b.read(new AbortController().signal)) parts.push(part);
    })();
    b.call('c_hang', 'hangup', '{}');
    b.text('Goodbye');
    b.call('c_note', 'note', '{}');
    // Let the reader take what it can.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(parts.map((p) => (p.type === 'tool-call' ? p.call.name : p.type))).toEqual([
      'text-delta',
      'note',
    ]);
    b.finish(undefined);
    await reading;
    expect(parts.map((p) => (p.type === 'tool-call' ? p.call.name : p.type))).toEqual([
      'text-delta',
      'note',
      'hangup',
      'finish',
    ]);
  });
});
