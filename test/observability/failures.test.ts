import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import {
  failureForCaller,
  failureForHost,
  failureForModel,
  failureOf,
  type Failure,
} from '../../src/session/failures.js';
import { ScriptedModel } from '../../src/models/scripted.js';
import { createSession } from '../../src/session/create-session.js';

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const timeout: Failure = {
  source: 'tool',
  code: 'timeout',
  message: 'the endpoint did not answer within 5 s',
  tool: 'book',
  callId: 'c1',
};

describe('failure taxonomy', () => {
  it('renders one failure for the model, the caller and the host', () => {
    expect(failureForModel(timeout)).toEqual({
      error: { code: 'timeout', message: 'the endpoint did not answer within 5 s' },
    });
    expect(failureForHost(timeout)).toEqual({
      source: 'tool',
      code: 'timeout',
      message: 'the endpoint did not answer within 5 s',
      retryable: true,
      blame: 'service',
      cause: { tool: 'book', callId: 'c1' },
    });
    expect(failureForCaller(timeout)).toMatch(/try again/);
    expect(failureForCaller(timeout, { language: 'es-US' })).toMatch(/Intentémoslo/);
    // a language without built-in sentences falls back to English
    expect(failureForCaller(timeout, { language: 'ja-JP' })).toMatch(/try again/);
  });

  it('lets the host override caller sentences by code or kind, per language', () => {
    const messages = {
      timeout: { 'es-US': 'El sistema tarda; le llamamos luego.', '*': 'Systems are slow.' },
      not_understood: { en: 'Pardon?' },
    };
    expect(failureForCaller(timeout, { language: 'es-US', messages })).toBe(
      'El sistema tarda; le llamamos luego.',
    );
    expect(failureForCaller(timeout, { language: 'de-DE', messages })).toBe('Systems are slow.');
    const bad: Failure = { ...timeout, code: 'invalid_arguments' };
    expect(failureForCaller(bad, { language: 'en-GB', messages })).toBe('Pardon?');
    expect(failureForHost(bad)).toMatchObject({ retryable: true, blame: 'model' });
  });

  it('classifies model and session failures', () => {
    expect(
      failureForHost({ source: 'model', code: 'http_status', message: '503', status: 503 }),
    ).toMatchObject({ retryable: true, blame: 'service', cause: { status: 503 } });
    expect(
      failureForHost({ source: 'session', code: 'session_ended', message: 'ended' }),
    ).toMatchObject({ retryable: false, blame: 'host' });
  });

  it('tool-error and model-error events carry the retryable flag, and failureOf reads them', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: {
          type: 'function',
          function: { name: 'pay', parameters: { type: 'object', properties: {} } },
        },
      },
    ]);
    const s = createSession({
      tools,
      model: new ScriptedModel([
        {
          tool_calls: [
            { name: 'pay', args: {} },
            { name: 'nope', args: {} },
          ],
        },
        { text: 'ok' },
        { error: 'boom' },
      ]),
    });
    const r = await s.run('pay');
    const failures = r.events.flatMap((e) => {
      const f = failureOf(e);
      return f === undefined ? [] : [failureForHost(f)];
    });
    expect(failures.map((f) => [f.code, f.retryable])).toEqual([
      ['not_available', false],
      ['unknown_tool', true],
    ]);
    const stream = s.send('again');
    await stream.result.catch(() => undefined);
    const failed = (await collect(stream)).find((e) => e.type === 'model-error');
    expect(failed).toMatchObject({ code: 'http_status', retryable: true });
    expect(failureForHost(failureOf(failed!)!)).toMatchObject({
      source: 'model',
      blame: 'service',
    });
    await s.close();
  });
});
