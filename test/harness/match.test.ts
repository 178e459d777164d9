import { NO_TIMINGS } from '../../src/observability/turn-tracing.js';
import { describe, expect, it } from 'vitest';
import { matchValue } from '../../src/harness/match.js';
import { checkTurn } from '../../src/harness/check-turn.js';
import type { ObservedTurn } from '../../src/harness/observe.js';

describe('matchValue', () => {
  it('is exact by default: extra keys, types and lengths all count', () => {
    expect(matchValue({ a: 1 }, { a: 1 })).toEqual([]);
    expect(matchValue({ a: 1 }, { a: 1, b: 2 })).toEqual([
      { path: 'b', reason: 'unexpected key', actual: 2 },
    ]);
    expect(matchValue(5, '5')[0]?.reason).toBe('expected number, got string');
    expect(matchValue([1, 2], [1])[0]?.reason).toBe('expected 2 item(s), got 1');
    expect(matchValue({ a: { b: 'x' } }, { a: { b: 'y' } }, { path: 'args' })[0]).toEqual({
      path: 'args.a.b',
      reason: 'different value',
      expected: 'x',
      actual: 'y',
    });
  });
  it('partial allows extra keys at any depth, not missing ones', () => {
    expect(matchValue({ a: { b: 1 } }, { a: { b: 1, c: 2 }, d: 3 }, { mode: 'partial' })).toEqual(
      [],
    );
    expect(matchValue({ a: 1 }, { b: 1 }, { mode: 'partial' })[0]).toMatchObject({
      path: 'a',
      reason: 'missing',
    });
  });
  it('regex and any matchers', () => {
    expect(matchValue({ regex: '^Sun' }, 'Sunny')).toEqual([]);
    expect(matchValue({ regex: '^5$' }, 5)).toEqual([]);
    expect(matchValue({ regex: '^Sun' }, 'Rain')[0]?.reason).toMatch(/does not match/);
    expect(matchValue({ any: true }, null)).toEqual([]);
    expect(matchValue({ x: { any: true } }, {})[0]?.reason).toBe('missing');
  });
  it('a matcher is an object with that one key: with another key it is an expected object', () => {
    expect(matchValue({ any: true, id: 7 }, { any: true, id: 8 })[0]).toMatchObject({
      path: 'id',
      reason: 'different value',
    });
    expect(matchValue({ any: true, id: 7 }, 'anything')[0]?.reason).toBe(
      'expected an object, got string',
    );
  });
  it('treats special-looking keys as data', () => {
    const expected = JSON.parse('{"__proto__":{"x":1},"constructor":2}') as unknown;
    expect(matchValue(expected, JSON.parse('{"__proto__":{"x":1},"constructor":2}'))).toEqual([]);
    expect(matchValue(expected, {}).map((m) => m.path)).toEqual(['__proto__', 'constructor']);
  });
});

function turn(partial: Partial<ObservedTurn>): ObservedTurn {
  return {
    user: 'u',
    toolCalls: [],
    requests: [],
    say: [],
    language: 'en-US',
    vars: {},
    workflows: {},
    reply: '',
    toolErrors: [],
    events: [],
    ended: false,
    interrupted: false,
    timings: NO_TIMINGS,
    ...partial,
  };
}

describe('checkTurn', () => {
  it('checks requests: method case, url with query split, json, form, header subset', () => {
    const observed = turn({
      requests: [
        {
          method: 'POST',
          url: 'https://a.test/x?k=1',
          headers: { 'content-type': 'application/json', 'x-a': '1' },
          body: '{"a":1,"b":2}',
        },
        { method: 'POST', url: 'https://a.test/f', headers: {}, body: 'a=1&a=2&b=x' },
      ],
    });
    const ok = checkTurn({
      path: 'e',
      observed,
      expect: {
        requests: [
          {
            method: 'post',
            url: 'https://a.test/x',
            query: { k: '1' },
            json: { a: 1 },
            match: 'partial',
            headers: { 'X-A': '1' },
          },
          { url: 'https://a.test/f', form: { a: ['1', '2'], b: 'x' } },
        ],
      },
    });
    expect(ok).toEqual([]);
    const bad = checkTurn({
      path: 'e',
      observed,
      expect: { requests: [{ url: 'https://a.test/x', json: { a: 1 } }] },
    });
    expect(bad.map((m) => m.path)).toEqual([
      'e.requests',
      'e.requests[0].url',
      'e.requests[0].json.b',
    ]);
  });
  it("an expected url matches by meaning: a phone number's + as the %2B sent", () => {
    const observed = turn({
      requests: [
        {
          method: 'GET',
          url: 'https://a.test/n/%2B15551234?phone=%2B15551234&q=a+b',
          headers: {},
        },
      ],
    });
    const check = (url: string) =>
      checkTurn({ path: 'e', observed, expect: { requests: [{ url }] } }).map((m) => m.path);
    expect(check('https://a.test/n/+15551234?q=a+b&phone=+15551234')).toEqual([]);
    expect(check('https://a.test/n/+15551234?q=a+b&phone=+15551235')).toEqual([
      'e.requests[0].url',
    ]);
  });
  it('a count mismatch shows both lists in one line per item', () => {
    const observed = turn({
      toolCalls: [
        { name: 'book', args: { city: 'X' }, rawArguments: '{}', output: 1, isError: false },
      ],
      requests: [{ method: 'GET', url: 'https://a.test/x', headers: {} }],
    });
    const out = checkTurn({
      path: 'e',
      observed,
      expect: {
        tool_calls: [{ name: 'book', args: { city: 'X' } }, { name: 'pay' }],
        requests: [],
      },
    });
    expect(out[0]).toMatchObject({
      path: 'e.tool_calls',
      reason: 'expected 2 tool call(s), got 1',
      expected: ['book({"city":"X"})', 'pay(…)'],
      actual: ['book({"city":"X"})'],
    });
    expect(out[1]).toMatchObject({
      path: 'e.requests',
      expected: [],
      actual: ['GET https://a.test/x'],
    });
  });
  it('matches events as an ordered subsequence', () => {
    const observed = turn({
      events: [
        { type: 'interrupted' },
        { type: 'language', from: 'a', to: 'b' },
        { type: 'turn-end', content: '', timings: NO_TIMINGS },
      ],
    });
    expect(
      checkTurn({
        path: 'e',
        observed,
        expect: { events: [{ type: 'language', to: 'b' }, { type: 'turn-end' }] },
      }),
    ).toEqual([]);
    expect(
      checkTurn({
        path: 'e',
        observed,
        expect: { events: [{ type: 'turn-end' }, { type: 'language' }] },
      })[0]?.path,
    ).toBe('e.events[1]');
    // One event stands for one expectation: two expected "interrupted" need two events.
    expect(
      checkTurn({
        path: 'e',
        observed,
        expect: { events: [{ type: 'interrupted' }, { type: 'interrupted' }] },
      }),
    ).toMatchObject([
      { path: 'e.events[1]', reason: 'no such event after the previous expected one' },
    ]);
  });
  it('every expectation reports its own mismatch, at its own path', () => {
    const observed = turn({
      toolCalls: [
        { name: 'book', args: { city: 'X' }, rawArguments: '{}', output: 1, isError: false },
      ],
      requests: [
        {
          method: 'POST',
          url: 'https://a.test/f?k=1',
          headers: { 'x-a': '1' },
          body: 'a=1&b=x',
        },
      ],
      commands: [{ command: 'lookup', argv: ['--id', '7'] }],
      toolErrors: [{ tool: 'pay', code: 'timeout', message: 'too slow' }],
      say: ['hi'],
      vars: { a: 1 },
      workflows: { flow: { step: 'ASK' } },
      reply: 'ok',
      agent: 'sales',
      modelError: 'rate_limited',
      ended: false,
      interrupted: false,
    });
    const cases: [Parameters<typeof checkTurn>[0]['expect'], string][] = [
      [{ tool_calls: [{ name: 'book', args: { city: 'Y' } }] }, 'e.tool_calls[0].args.city'],
      [{ tool_calls: [{ name: 'pay' }] }, 'e.tool_calls[0].name'],
      [{ commands: [{ command: 'other' }] }, 'e.commands[0].command'],
      [{ commands: [{ argv: ['--id', '8'] }] }, 'e.commands[0].argv[1]'],
      [{ tool_errors: [{ tool: 'pay', code: 'network' }] }, 'e.tool_errors[0].code'],
      [{ tool_errors: [{ tool: 'pay', message: 'fast' }] }, 'e.tool_errors[0].message'],
      [{ say: ['bye'] }, 'e.say[0]'],
      [{ language: 'es-US' }, 'e.language'],
      [{ vars: { a: 2 } }, 'e.vars.a'],
      [{ workflows: { flow: { step: 'DONE' } } }, 'e.workflows.flow.step'],
      [{ reply: 'no' }, 'e.reply'],
      [{ agent: 'support' }, 'e.agent'],
      [{ model_error: 'timeout' }, 'e.model_error'],
      [{ ended: true }, 'e.ended'],
      [{ interrupted: true }, 'e.interrupted'],
      [{ events: [{ type: 'handoff' }] }, 'e.events[0]'],
      [{ requests: [{ method: 'GET' }] }, 'e.requests[0].method'],
      [{ requests: [{ url: 'https://a.test/g?k=1' }] }, 'e.requests[0].url'],
      [{ requests: [{ url: 'https://a.test/f', query: { k: '2' } }] }, 'e.requests[0].query.k'],
      [{ requests: [{ form: { a: '2', b: 'x' } }] }, 'e.requests[0].form.a'],
      [{ requests: [{ json: { a: 1 } }] }, 'e.requests[0].json'],
      [{ requests: [{ body: 'a=1' }] }, 'e.requests[0].body'],
      [{ requests: [{ headers: { 'X-A': '2' } }] }, 'e.requests[0].headers["x-a"]'],
      [{ requests: [{ headers: { 'x-b': '1' } }] }, 'e.requests[0].headers["x-b"]'],
    ];
    for (const [expect_, path] of cases) {
      const out = checkTurn({ path: 'e', observed, expect: expect_ });
      expect({ expect: expect_, paths: out.map((m) => m.path) }).toEqual({
        expect: expect_,
        paths: [path],
      });
    }
  });
  it('vars are a subset match; say, reply and language exact', () => {
    const observed = turn({ vars: { a: 1, b: 2 }, say: ['hi'], reply: 'ok', language: 'es-US' });
    expect(
      checkTurn({
        path: 'e',
        observed,
        expect: { vars: { a: 1 }, say: ['hi'], reply: 'ok', language: 'es-US' },
      }),
    ).toEqual([]);
    expect(checkTurn({ path: 'e', observed, expect: { say: [] } })[0]?.reason).toBe(
      'expected 0 item(s), got 1',
    );
  });
});
