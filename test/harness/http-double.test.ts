import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { createHttpDouble, exchangeMatches } from '../../src/harness/http-double.js';
import { httpExchangeSchema, type HttpExchange } from '../../src/harness/fixture-schema.js';

function ex(raw: unknown): HttpExchange {
  return httpExchangeSchema.parse(raw);
}

describe('createHttpDouble', () => {
  it('answers a declared exchange and records the request', async () => {
    const double = createHttpDouble({
      exchanges: [
        ex({
          request: { method: 'post', url: 'https://api.clinic.test/v1/book' },
          response: { status: 201, json: { id: 42 } },
        }),
      ],
    });
    const res = await request('https://api.clinic.test/v1/book', {
      dispatcher: double.dispatcher,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api': 'k' },
      body: JSON.stringify({ city: 'Bronx' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(await res.body.json()).toEqual({ id: 42 });
    expect(double.requests).toHaveLength(1);
    expect(double.requests[0]).toMatchObject({
      method: 'POST',
      url: 'https://api.clinic.test/v1/book',
      body: '{"city":"Bronx"}',
      exchange: 0,
      status: 201,
    });
    expect(double.requests[0]?.headers['x-api']).toBe('k');
    expect(double.unusedExchanges()).toEqual([]);
    await double.close();
  });

  it('keeps a content type the exchange declares (any case) over the one its json or text implies', async () => {
    const double = createHttpDouble({
      exchanges: [
        ex({
          request: { method: 'GET', url: 'https://api.clinic.test/v1/problem' },
          response: {
            status: 404,
            json: { title: 'no such slot' },
            headers: { 'Content-Type': 'application/problem+json' },
          },
        }),
        ex({
          request: { method: 'GET', url: 'https://api.clinic.test/v1/plain' },
          response: { text: 'ok' },
        }),
      ],
    });
    const problem = await request('https://api.clinic.test/v1/problem', {
      dispatcher: double.dispatcher,
    });
    expect(problem.headers['content-type']).toBe('application/problem+json');
    expect(await problem.body.json()).toEqual({ title: 'no such slot' });
    const plain = await request('https://api.clinic.test/v1/plain', {
      dispatcher: double.dispatcher,
    });
    expect(plain.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(await plain.body.text()).toBe('ok');
    await double.close();
  });

  it('refuses and records an undeclared request, and reports unused exchanges', async () => {
    const double = createHttpDouble({
      exchanges: [ex({ request: { method: 'GET', url: 'https://a.test/x' }, times: 2 })],
    });
    await expect(
      request('https://b.test/y?q=1', { dispatcher: double.dispatcher }),
    ).rejects.toThrow();
    expect(double.requests[0]).toMatchObject({
      method: 'GET',
      url: 'https://b.test/y?q=1',
      exchange: undefined,
    });
    const r = await request('https://a.test/x?any=1', { dispatcher: double.dispatcher });
    expect(r.statusCode).toBe(200);
    await r.body.text();
    expect(double.unusedExchanges()).toEqual([
      { index: 0, method: 'GET', url: 'https://a.test/x', remaining: 1 },
    ]);
    await double.close();
  });

  it('matches the query when the declared URL has one', async () => {
    const double = createHttpDouble({
      exchanges: [
        ex({
          request: { method: 'GET', url: 'https://a.test/w?city=Paris&units=metric' },
          response: { text: 'paris' },
        }),
        ex({
          request: { method: 'GET', url: 'https://a.test/w', query: { city: 'Rome' } },
          response: { text: 'rome' },
        }),
      ],
    });
    const rome = await request('https://a.test/w?units=metric&city=Rome', {
      dispatcher: double.dispatcher,
    });
    expect(await rome.body.text()).toBe('rome');
    const paris = await request('https://a.test/w?units=metric&city=Paris', {
      dispatcher: double.dispatcher,
    });
    expect(await paris.body.text()).toBe('paris');
    await double.close();
  });

  it('delays answers and fails with a transport error on request', async () => {
    const double = createHttpDouble({
      exchanges: [
        ex({
          request: { method: 'GET', url: 'https://a.test/slow' },
          response: { delay_ms: 60, json: 1 },
        }),
        ex({
          request: { method: 'GET', url: 'https://a.test/reset' },
          response: { error: 'network' },
        }),
      ],
    });
    const started = Date.now();
    const slow = await request('https://a.test/slow', { dispatcher: double.dispatcher });
    expect(await slow.body.json()).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    await expect(
      request('https://a.test/reset', { dispatcher: double.dispatcher }),
    ).rejects.toThrow(/socket hang up/);
    await double.close();
  });

  it('works with fetch too', async () => {
    const double = createHttpDouble({
      exchanges: [
        ex({ request: { method: 'PUT', url: 'https://a.test/f' }, response: { status: 204 } }),
      ],
    });
    const { fetch } = await import('undici');
    const res = await fetch('https://a.test/f', {
      method: 'PUT',
      body: 'a=1',
      dispatcher: double.dispatcher,
    });
    expect(res.status).toBe(204);
    expect(double.requests[0]?.body).toBe('a=1');
    await double.close();
  });
});

describe('exchangeMatches: which requests a declared exchange answers', () => {
  const declared = ex({
    request: {
      method: 'get',
      url: 'https://api.clinic.test/v1/slots',
      query: { day: ['mon', 'tue'] },
    },
    response: { status: 200, json: [] },
  });
  it('the same method, origin, path and query values', () => {
    expect(
      exchangeMatches(declared, 'GET', 'https://api.clinic.test/v1/slots?day=mon&day=tue'),
    ).toBe(true);
  });
  it.each([
    ['another method', 'POST', 'https://api.clinic.test/v1/slots?day=mon&day=tue'],
    ['another path', 'GET', 'https://api.clinic.test/v1/slotz?day=mon&day=tue'],
    ['another origin', 'GET', 'https://api.other.test/v1/slots?day=mon&day=tue'],
    ['a query value fewer', 'GET', 'https://api.clinic.test/v1/slots?day=mon'],
    ['a query value more', 'GET', 'https://api.clinic.test/v1/slots?day=mon&day=tue&day=wed'],
    ['query values in another order', 'GET', 'https://api.clinic.test/v1/slots?day=tue&day=mon'],
    ['no URL at all', 'GET', 'not a url'],
  ])('not %s', (_label, method, url) => {
    expect(exchangeMatches(declared, method, url)).toBe(false);
  });
  it('a query written in the URL must be the whole query, in any order', () => {
    const inUrl = ex({
      request: { method: 'get', url: 'https://api.clinic.test/v1/slots?a=1&b=2' },
      response: { status: 200, json: [] },
    });
    expect(exchangeMatches(inUrl, 'GET', 'https://api.clinic.test/v1/slots?b=2&a=1')).toBe(true);
    expect(exchangeMatches(inUrl, 'GET', 'https://api.clinic.test/v1/slots?a=1&b=2&c=3')).toBe(
      false,
    );
  });

  // A hand-written fixture writes a phone number with its `+`; the engine sends it encoded.
  it('a + in a declared path or query matches the %2B sent; a + sent for a space still matches', () => {
    const get = (url: string) =>
      ex({ request: { method: 'get', url }, response: { status: 200, json: [] } });
    const path = get('https://api.clinic.test/v1/numbers/+15551234');
    expect(exchangeMatches(path, 'GET', 'https://api.clinic.test/v1/numbers/%2B15551234')).toBe(
      true,
    );
    expect(exchangeMatches(path, 'GET', 'https://api.clinic.test/v1/numbers/%2B15551235')).toBe(
      false,
    );
    const query = get('https://api.clinic.test/v1/lookup?phone=+15551234&q=a+b');
    for (const sent of [
      'phone=%2B15551234&q=a%2Bb',
      'q=a+b&phone=+15551234',
      'q=a+b&phone=%2B15551234',
    ])
      expect(exchangeMatches(query, 'GET', `https://api.clinic.test/v1/lookup?${sent}`)).toBe(true);
    expect(
      exchangeMatches(query, 'GET', 'https://api.clinic.test/v1/lookup?phone=%2B15551234&q=a-b'),
    ).toBe(false);
  });
});
