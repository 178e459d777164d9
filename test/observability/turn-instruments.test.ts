/**
 * The instruments of one turn, driven directly with an injected clock and an in-memory exporter:
 * what each span may carry (secrets scrubbed, values only when asked, the documented attributes
 * and statuses) and the latency report's first-of-the-turn figures. Faults seeded into
 * turn-tracing.ts, tool-call-trace.ts and safe-url.ts that the session-level tests missed.
 */
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { safeUrl } from '../../src/observability/safe-url.js';
import { TurnTracing, type Scrubber } from '../../src/observability/turn-tracing.js';
import type { TracingOptions } from '../../src/observability/types.js';

const SECRET = 'sk-Secret-9f8e7d6c';
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');
afterEach(() => exporter.reset());

const secrets: Scrubber = {
  scrubText: (text) => text.split(SECRET).join('[redacted]'),
  scrubValue: (value) => JSON.parse(JSON.stringify(value).split(SECRET).join('[redacted]')),
};

function turn(options: Omit<TracingOptions, 'tracer'> = {}, clock = { t: 0 }): TurnTracing {
  return new TurnTracing({
    sessionId: 's1',
    turn: 1,
    language: 'en',
    model: 'openai:m',
    now: () => clock.t,
    options: { tracer, ...options },
    secrets,
  });
}

function span(name: string): ReadableSpan {
  const found = exporter.getFinishedSpans().find((s) => s.name === name);
  if (found === undefined) throw new Error(`no span ${name}`);
  return found;
}

const ERROR = 2; // SpanStatusCode.ERROR

describe('what a span may show', () => {
  it("url.full keeps values with recordUrlValues but still scrubs the session's secrets", () => {
    const t = turn({ recordUrlValues: true });
    const call = t.toolCall('c1', 'lookup', 'endpoint', 0, undefined);
    call
      .attempt({ method: 'GET', url: `https://h.test/v1/${SECRET}?id=7`, headers: {}, attempt: 1 })
      .end(200);
    call.end(undefined, {});
    t.end({ interrupted: false });
    expect(span('GET').attributes['url.full']).toBe('https://h.test/v1/[redacted]?id=7');
  });

  it('recordUrlValues drops userinfo and the fragment all the same', () => {
    expect(safeUrl('https://u:pw@h.test/a?x=1#frag', undefined, true)?.full).toBe(
      'https://h.test/a?x=1',
    );
  });

  it('a redacted query keeps its keys encoded (a key with = or & stays one key)', () => {
    expect(safeUrl('https://h.test/?a%3Db%26c=1', undefined, false)?.full).toBe(
      'https://h.test/?a%3Db%26c=REDACTED',
    );
  });

  it('without recordValues a tool span has neither arguments nor result, a command span no argv', () => {
    const t = turn();
    const call = t.toolCall('c1', 'run', 'command', 0, { q: 'argument-value' });
    call.command({ command: 'grep', argv: ['argv-value'] }).end(0);
    call.end(undefined, { out: 'result-value' });
    t.end({ interrupted: false });
    expect(span('execute_tool run').attributes).not.toHaveProperty('gen_ai.tool.call.result');
    expect(span('execute_tool run').attributes).not.toHaveProperty('gen_ai.tool.call.arguments');
    expect(span('command grep').attributes).not.toHaveProperty('process.command_args');
    expect(span('command grep').attributes['process.exit.code']).toBe(0);
  });

  it('recorded values are scrubbed of secrets and of url values, JSON-escaped forms too', () => {
    const t = turn({ recordValues: true });
    const call = t.toolCall('c1', 'lookup', 'endpoint', 0, undefined);
    // A query value with a quote: in the result's JSON it appears escaped.
    call
      .attempt({ method: 'GET', url: 'https://h.test/v1?k=ab%22cdefg', headers: {}, attempt: 1 })
      .end(200);
    call.end(undefined, { echo: 'ab"cdefg', short: 'wxyz', token: SECRET });
    t.end({ interrupted: false });
    const result = String(span('execute_tool lookup').attributes['gen_ai.tool.call.result']);
    expect(result).not.toContain('cdefg');
    expect(result).not.toContain(SECRET);
    expect(result).toContain('[redacted]');
    expect(result).toContain('REDACTED');
    // Values of 4 characters and more are replaced; shorter ones would replace common text.
    expect(t.recorded({ echo: 'wxyz' }, ['wxyz'])).toBe('{"echo":"REDACTED"}');
    expect(t.recorded({ echo: 'xyz' }, ['xyz'])).toBe('{"echo":"xyz"}');
  });

  it('status messages of a failed model call, command run and turn are scrubbed', () => {
    const t = turn();
    t.modelStart();
    t.modelEnd(undefined, { code: 'auth', message: `bad key ${SECRET}` });
    const call = t.toolCall('c1', 'run', 'command', 0, undefined);
    call.command({ command: 'grep', argv: [] }).end(undefined, 'timeout');
    call.end('timeout', undefined);
    t.end({ interrupted: false, error: { code: 'model_error', message: `key ${SECRET}` } });
    const spans = exporter.getFinishedSpans();
    expect(JSON.stringify(spans.map((s) => s.status))).not.toContain(SECRET);
    expect(span('chat m').status).toEqual({ code: ERROR, message: 'bad key [redacted]' });
    expect(span('switchboard.turn').status).toEqual({ code: ERROR, message: 'key [redacted]' });
    expect(span('command grep').status.code).toBe(ERROR);
    expect(span('command grep').attributes['error.type']).toBe('timeout');
  });
});

describe('HTTP attempt spans', () => {
  it('a 400 is an error, a first attempt has no resend_count, a retry counts its resends', () => {
    const t = turn();
    const call = t.toolCall('c1', 'lookup', 'endpoint', 0, undefined);
    call.attempt({ method: 'GET', url: 'https://h.test/a', headers: {}, attempt: 1 }).end(400);
    call.attempt({ method: 'PUT', url: 'https://h.test/a', headers: {}, attempt: 2 }).end(399);
    call.end('http_error', undefined);
    t.end({ interrupted: false });
    const first = span('GET');
    expect(first.status.code).toBe(ERROR);
    expect(first.attributes['error.type']).toBe('400');
    expect(first.attributes).not.toHaveProperty('http.request.resend_count');
    const second = span('PUT');
    expect(second.status.code).not.toBe(ERROR);
    expect(second.attributes['http.request.resend_count']).toBe(1);
  });
});

describe('latency report', () => {
  it("the turn's first token is the first model call's; its first tool call is the earliest", () => {
    const clock = { t: 0 };
    const t = turn({}, clock);
    t.modelStart();
    clock.t = 10;
    t.modelPart(false);
    clock.t = 15;
    t.modelPart(true);
    t.modelEnd(undefined);
    clock.t = 100;
    t.modelStart();
    clock.t = 130;
    t.modelPart(true);
    t.modelEnd(undefined);
    const timings = t.end({ interrupted: false });
    expect(timings.modelTimeToFirstTokenMs).toBe(10);
    expect(timings.modelTimeToFirstToolCallMs).toBe(15);
    expect(timings.modelCalls.map((m) => m.timeToFirstTokenMs)).toEqual([10, 30]);
  });
});

describe('turn span attributes', () => {
  it('names the agent, counts the tool calls and says whether the turn was interrupted', () => {
    const t = new TurnTracing({
      sessionId: 's1',
      turn: 2,
      agent: 'billing',
      language: 'en',
      model: 'openai:m',
      now: () => 0,
      options: { tracer },
    });
    t.toolCall('c1', 'lookup', 'endpoint', 0, undefined).end(undefined, {});
    t.toolCall('c2', 'lookup', 'endpoint', 0, undefined).end(undefined, {});
    t.end({ interrupted: true });
    expect(span('switchboard.turn').attributes).toMatchObject({
      'gen_ai.agent.name': 'billing',
      'switchboard.turn': 2,
      'switchboard.tool_calls': 2,
      'switchboard.interrupted': true,
    });
  });
});
