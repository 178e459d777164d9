/**
 * RELIABILITY.md "URLs built from model values": what the existing handler tests
 * (test/handlers/endpoint-placement, network-policy) leave out — control characters and
 * unsendable bytes in every kind of header value, lone surrogates, the origin/prefix invariant
 * itself (by hand and by property), more load-time URL refusals, every redirect status, and more
 * private-address notations, all with a connector double that counts dials.
 */
import fc from 'fast-check';
import { buildConnector } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { buildRequest, isBuildFailure } from '../../src/handlers/endpoint/build-request.js';
import {
  createEndpointHandler,
  type EndpointHandler,
  type EndpointHandlerOptions,
} from '../../src/handlers/endpoint/endpoint-handler.js';
import { parseUrlTemplate, type UrlTemplate } from '../../src/handlers/endpoint/url.js';
import type { HandlerOutcome } from '../../src/handlers/types.js';
import { makeContext, makeTool, type ToolOverrides } from '../handlers/helpers.js';
import { json, startTestServer, type TestServer } from '../handlers/test-server.js';
import { fn } from './helpers.js';

let api: TestServer;
let auth: TestServer;
const handlers: EndpointHandler[] = [];
function handler(options: EndpointHandlerOptions = {}): EndpointHandler {
  const h = createEndpointHandler({ sleep: async () => undefined, ...options });
  handlers.push(h);
  return h;
}
beforeAll(async () => {
  api = await startTestServer();
  auth = await startTestServer();
});
afterAll(async () => {
  await Promise.all(handlers.map((h) => h.close()));
  await api.close();
  await auth.close();
});
beforeEach(() => {
  api.reset();
  auth.reset();
  api.route('*', json(200, { ok: true }));
});

const code = (out: HandlerOutcome): string => (out.type === 'error' ? out.error.code : 'success');

function call(
  h: EndpointHandler,
  endpoint: ToolOverrides['endpoint'],
  args: Record<string, unknown> = {},
  service?: string,
): Promise<HandlerOutcome> {
  return h.execute(
    args,
    makeContext(makeTool({ endpoint, ...(service === undefined ? {} : { service }) })),
  );
}

describe('control characters and unsendable bytes in header values → tool error, nothing sent', () => {
  const BAD = [
    ['NUL', 'a\u0000b'],
    ['CR LF (header injection)', 'a\r\nX-Injected: yes'],
    ['LF', 'a\nb'],
    ['DEL', 'a\u007fb'],
    ['tab', 'a\tb'],
    ['a character beyond Latin-1', 'tök€n'],
  ] as const;

  it.each(BAD)('%s in a service header, custom_headers auth or bearer token', async (_l, bad) => {
    const h = handler({
      services: {
        plain: { headers: { 'x-note': bad } },
        custom: {
          auth: { type: 'custom_headers', headers: { 'x-api-key': bad } },
          origins: [api.origin],
        },
        bearer: { auth: { type: 'bearer', token: bad }, origins: [api.origin] },
      },
    });
    for (const service of ['plain', 'custom', 'bearer']) {
      for (const method of ['get', 'post'] as const) {
        const out = await call(h, { url: `${api.origin}/x`, method }, {}, service);
        expect(code(out), `${service} ${method}`).toBe('invalid_arguments');
        expect(out.type === 'error' && out.error.message).toMatch(/header "[a-z-]+" contains/);
        expect(out.requests).toEqual([]);
      }
    }
    expect(api.connections).toBe(0);
  });

  it.each(BAD)('%s in an oauth2 token the auth server issued', async (_l, bad) => {
    auth.route('/token', (_req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: bad, expires_in: 60 })),
    );
    const h = handler({
      services: {
        oauth: {
          origins: [api.origin],
          auth: {
            type: 'oauth2',
            client_id: 'c',
            client_secret: 'client-secret-1',
            auth_url: `${auth.origin}/token`,
          },
        },
      },
    });
    const out = await call(h, { url: `${api.origin}/x` }, {}, 'oauth');
    expect(code(out)).toBe('invalid_arguments');
    expect(api.connections).toBe(0);
  });

  it('a header name that is not an HTTP token is refused the same way', async () => {
    const h = handler({ services: { s: { headers: { 'x bad': '1' } } } });
    const out = await call(h, { url: `${api.origin}/x` }, {}, 's');
    expect(code(out)).toBe('invalid_arguments');
    expect(api.connections).toBe(0);
  });

  it('Latin-1 and visible ASCII header values are sent as they are', async () => {
    api.route('*', (req, res) => json(200, { note: req.headers['x-note'] })(req, res, ''));
    const h = handler({ services: { s: { headers: { 'x-note': 'a b;c="d"' } } } });
    const out = await call(h, { url: `${api.origin}/x` }, {}, 's');
    expect(out).toMatchObject({ type: 'success', output: { note: 'a b;c="d"' } });
  });
});

describe('path values', () => {
  it.each(['a\uD800b', '\uDC00', 'x\uDBFF'])(
    'a lone surrogate %j is invalid_arguments (not an internal error), zero connections',
    async (id) => {
      const out = await call(
        handler(),
        { url: `${api.origin}/v1/{id}`, argumentLocation: 'path' },
        { id },
      );
      expect(code(out)).toBe('invalid_arguments');
      expect(api.connections).toBe(0);
    },
  );

  it.each(['..', '.', ''])('%j as a path value is refused with zero connections', async (id) => {
    const out = await call(
      handler(),
      { url: `${api.origin}/v1/pets/{id}/photos`, argumentLocation: 'path' },
      { id },
    );
    expect(code(out)).toBe('invalid_arguments');
    expect(api.connections).toBe(0);
  });

  it('"../../admin" is one encoded segment, still under the configured path', async () => {
    const out = await call(
      handler(),
      { url: `${api.origin}/v1/pets/{id}`, argumentLocation: 'path' },
      { id: '../../admin' },
    );
    expect(out.type).toBe('success');
    expect(api.requests.map((r) => r.url)).toEqual(['/v1/pets/..%2F..%2Fadmin']);
  });
});

describe('the origin/prefix invariant on every built request', () => {
  it('refuses a request whose normalised path leaves the configured prefix', () => {
    // A template no loader would produce: the invariant is the last line of defence.
    const escaping: UrlTemplate = {
      origin: 'https://api.test',
      pieces: ['/v1/pets/', '/../../../admin'],
      names: ['id'],
      pathPrefix: '/v1/pets/',
      query: '',
    };
    const built = buildRequest(escaping, 'query', { id: 'x' });
    expect(isBuildFailure(built) && built.problem).toMatch(/outside the configured URL/);
    const otherOrigin: UrlTemplate = {
      ...escaping,
      origin: 'https://api.test:443',
      pieces: ['/v1/pets/', ''],
    };
    expect(isBuildFailure(buildRequest(otherOrigin, 'query', { id: 'x' }))).toBe(true);
  });

  it('holds for any model values in path and query (property)', () => {
    const templates = [
      'https://api.test/v1/pets/{id}',
      'https://api.test:8443/v1/{kind}/items/{id}?v=2',
      'http://10.0.0.1/{id}',
      'https://api.test/{id}',
    ].map(parseUrlTemplate);
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.constantFrom(
        '..',
        '.',
        '',
        '%2e%2e',
        '/',
        '//evil.test/x',
        '@evil.test',
        '\\evil',
        '?a#b',
      ),
      fc.integer(),
      fc.boolean(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...templates),
        fc.dictionary(fc.string({ unit: 'binary', maxLength: 10 }), value, { maxKeys: 4 }),
        value,
        value,
        (template, extra, id, kind) => {
          const args = { ...extra, id, kind };
          const built = buildRequest(template, 'query', args);
          if (isBuildFailure(built)) return;
          const parsed = new URL(built.url.href);
          expect(built.url.origin).toBe(template.origin);
          expect(parsed.origin).toBe(template.origin);
          expect(parsed.pathname.startsWith(template.pathPrefix)).toBe(true);
          expect(parsed.hash).toBe('');
          // Each placeholder is exactly one segment.
          const segments = parsed.pathname.split('/').length;
          const written = template.pieces.join('x').split('/').length;
          expect(segments).toBe(written);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('request URLs built without a parse', () => {
  const parts = (url: URL) => ({
    href: url.href,
    origin: url.origin,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port,
    path: url.pathname + url.search,
  });

  it('a URL written as the parser writes it gets the fast path; others do not', () => {
    expect(parseUrlTemplate('https://api.test/v1/pets/{id}').canonical).toBeDefined();
    expect(parseUrlTemplate('https://api.test:8443/v1/{a}/x?v=2').canonical).toBeDefined();
    // The origin is always written as URL#origin gives it, so only the path and query count.
    expect(parseUrlTemplate('https://API.test:443/v1/{id}').canonical).toBeDefined();
    // Each of these is rewritten by the parser: a dot segment, a space, no path at all.
    for (const url of [
      'https://api.test/v1/./{id}',
      'https://api.test/v 1/{id}',
      'https://api.test?x=1',
    ]) {
      const template = (() => {
        try {
          return parseUrlTemplate(url);
        } catch {
          return undefined;
        }
      })();
      if (template !== undefined) expect(template.canonical, url).toBeUndefined();
    }
  });

  it('a segment that comes out as a dot segment is parsed, and refused when it leaves the prefix', () => {
    // `%2` in the configured path and "e" from the model make `%2e`, a dot segment to the parser.
    const template = parseUrlTemplate('https://api.test/v1/%2{a}/x');
    expect(template.canonical).toBeDefined();
    for (const a of ['e', 'E']) {
      const built = buildRequest(template, 'path', { a });
      expect(isBuildFailure(built) && built.problem).toMatch(/outside the configured URL/);
    }
    const plain = buildRequest(template, 'path', { a: 'f' });
    expect(!isBuildFailure(plain) && plain.url.href).toBe('https://api.test/v1/%2f/x');
  });

  it('is exactly what the parser gives, for any values (property)', () => {
    const templates = [
      'https://api.test/v1/pets/{id}',
      'https://api.test:8443/v1/{kind}/items/{id}?v=2',
      'http://10.0.0.1/{id}',
      'https://api.test/{id}{kind}',
      'https://api.test/v1/.{id}/{kind}.',
      'http://[::1]:8080/a/%2{id}/b',
      'https://api.test/v1/%2{id}/{kind}',
    ].map(parseUrlTemplate);
    for (const t of templates) expect(t.canonical, t.pieces.join('{}')).toBeDefined();
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.constantFrom('..', '.', 'e', 'E', '.e', '%2e', '%2E', '/', '?a#b', '\\x', 'a b'),
      fc.integer(),
      fc.boolean(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...templates),
        fc.constantFrom('path' as const, 'query' as const, 'body' as const),
        fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), value, { maxKeys: 3 }),
        value,
        value,
        (template, location, extra, id, kind) => {
          const built = buildRequest(template, location, { ...extra, id, kind });
          if (isBuildFailure(built)) return;
          expect(built.url).toEqual(parts(new URL(built.url.href)));
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('query and form encoding', () => {
  // The encoder writes plain names and values itself and hands the rest to URLSearchParams; the
  // result must be URLSearchParams' own, byte for byte, for any values.
  const template = parseUrlTemplate('https://api.test/v1/search');
  const item = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 8 }),
    fc.constantFrom('metric', 'a-b_c.d*e', 'a b', 'ä', '~', "!'()", '+', '%20', '', '=&'),
    fc.string({ unit: fc.constantFrom(..."aZ09-._*!~'()/?#[]@$&+,;=% "), maxLength: 6 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  );
  const args = fc.dictionary(
    fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.constantFrom('units', 'a.b', 'x y')),
    fc.oneof(item, fc.array(item, { maxLength: 3 })),
    { maxKeys: 4 },
  );
  const expected = (values: Record<string, unknown>): string => {
    const pairs: Array<[string, string]> = [];
    for (const [key, value] of Object.entries(values))
      for (const v of Array.isArray(value) ? (value as unknown[]) : [value])
        if (v !== undefined && v !== null)
          pairs.push([key, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
    return new URLSearchParams(pairs).toString();
  };

  it('a query string is exactly what URLSearchParams writes, for any values (property)', () => {
    fc.assert(
      fc.property(args, (values) => {
        const built = buildRequest(template, 'query', values);
        if (isBuildFailure(built)) {
          // Only control characters in a name or value are refused.
          expect(built.problem).toMatch(/control characters/);
          return;
        }
        const query = expected(values);
        expect(built.url.path).toBe(query === '' ? '/v1/search' : `/v1/search?${query}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('a form body is exactly what URLSearchParams writes, control characters included', () => {
    fc.assert(
      fc.property(args, (values) => {
        const built = buildRequest(template, 'form', values);
        expect(isBuildFailure(built)).toBe(false);
        if (!isBuildFailure(built)) expect(built.body).toBe(expected(values));
      }),
      { numRuns: 3000 },
    );
  });

  it('a path value is exactly what encodeURIComponent writes, for any value (property)', () => {
    const items = parseUrlTemplate('https://api.test/v1/items/{id}');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 10 }),
          fc.constantFrom(
            "a-b_c.d*e!f~g'h(i)",
            'New York',
            'é',
            '%2e',
            '...',
            'a/b',
            '?x#y',
            '&=+',
          ),
          fc.string({ unit: fc.constantFrom(..."aZ09-._*!~'()/?#[]@$&+,;=% "), maxLength: 8 }),
          fc.integer(),
        ),
        (id) => {
          const built = buildRequest(items, 'path', { id });
          let expected: string | undefined;
          try {
            expected = `/v1/items/${encodeURIComponent(String(id))}`;
          } catch {
            expected = undefined; // a lone surrogate: refused
          }
          if (isBuildFailure(built)) {
            expect(
              expected === undefined ||
                /^\.{0,2}$/.test(String(id)) ||
                /[\u0000-\u001f\u007f]/.test(String(id)),
            ).toBe(true);
            return;
          }
          expect(built.url.path).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('writes plain values itself and escapes the rest as URLSearchParams does', () => {
    const built = buildRequest(template, 'query', {
      units: 'metric',
      days: 3,
      tags: ['a b', 'c'],
      note: "it's ~ok",
      skip: null,
    });
    expect(isBuildFailure(built) ? built.problem : built.url.path).toBe(
      '/v1/search?units=metric&days=3&tags=a+b&tags=c&note=it%27s+%7Eok',
    );
  });
});

describe('configured URLs the loader refuses', () => {
  async function urlProblem(url: string): Promise<string> {
    try {
      await loadTools([
        { type: 'endpoint', tool: fn('t', { id: {} }), endpoint: { url, method: 'get' } },
      ]);
    } catch (error) {
      expect(error).toBeInstanceOf(DefinitionError);
      const issue = (error as DefinitionError).issues.find(
        (i) => i.path === 'tools[0].endpoint.url',
      );
      expect(issue?.severity).toBe('error');
      return issue?.message ?? '';
    }
    throw new Error(`expected ${url} to fail loading`);
  }

  it('a placeholder that is not a parameter name is refused even if a property has that name', async () => {
    for (const name of ['user.id', '../id']) {
      const url = `https://api.test/v1/{${name}}`;
      let caught: unknown;
      try {
        await loadTools([
          {
            type: 'endpoint',
            tool: fn('t', { [name]: { type: 'string' } }),
            endpoint: { url, method: 'get', argument_location: 'path' },
          },
        ]);
      } catch (error) {
        caught = error;
      }
      expect(caught, url).toBeInstanceOf(DefinitionError);
      const issue = (caught as DefinitionError).issues.find(
        (i) => i.path === 'tools[0].endpoint.url',
      );
      expect(issue?.message, url).toMatch(/placeholder \{.*\} is not a parameter name/);
    }
  });

  it.each([
    ['https://{id}.api.test/v1', /only in the path/],
    ['https://api.test:{id}/v1', /only in the path/],
    ['http{id}://api.test/v1', /not an absolute http|only in the path|scheme/],
    ['{id}/v1', /not an absolute http/],
    ['https://user@api.test/v1', /credentials/],
    ['https://user:pw@api.test/v1', /credentials/],
    ['https://api.test\\@evil.test/v1', /credentials/],
    ['ftp://api.test/v1', /scheme must be http or https/],
    ['file:///etc/passwd', /not an absolute http|no host|scheme/],
    ['javascript://api.test/%0aalert(1)', /scheme must be http or https/],
    ['//api.test/v1', /not an absolute http/],
    ['https:///v1', /no host/],
    ['https://api.test/v1/{id}#{x}', /fragment/],
    ['https://api.test/v1 /{id}', /spaces or control characters/],
    ['https://api.test:99999/v1/{id}', /not a valid URL/],
    ['https://[not-ipv6]/v1/{id}', /not a valid URL/],
  ])('%s', async (url, message) => {
    expect(await urlProblem(url)).toMatch(message);
  });
});

describe('3xx responses are never followed', () => {
  it.each([301, 302, 303, 307, 308])('%i → http_redirect, one request', async (status) => {
    api.route('/from', (_req, res) => res.writeHead(status, { location: '/to' }).end());
    api.route('/to', json(200, { followed: true }));
    for (const method of ['get', 'post'] as const) {
      api.requests.length = 0;
      const out = await call(handler(), { url: `${api.origin}/from`, method });
      expect(code(out)).toBe('http_redirect');
      expect(api.requests.map((r) => r.url)).toEqual(['/from']);
    }
  });
});

describe('private-network policy: more notations, never a private dial', () => {
  /** Counts dials; only ever connects to the loopback test server. */
  function policyHandler(answers: Record<string, string[]> = {}) {
    const real = buildConnector({});
    const dialled: string[] = [];
    const looked: string[] = [];
    const h = handler({
      networkPolicy: { denyPrivateNetworks: true },
      connector: (opts, cb) => {
        dialled.push(opts.hostname);
        real({ ...opts, hostname: '127.0.0.1', port: String(api.port), protocol: 'http:' }, cb);
      },
      lookup: async (host) => {
        looked.push(host);
        const found = Object.hasOwn(answers, host) ? answers[host] : undefined;
        if (found === undefined) throw new Error(`ENOTFOUND ${host}`);
        return found;
      },
      services: {
        oauth: {
          origins: ['*'],
          auth: {
            type: 'oauth2',
            client_id: 'c',
            client_secret: 'client-secret-1',
            auth_url: 'http://169.254.169.254/token',
          },
        },
      },
    });
    return { h, dialled, looked };
  }

  it.each([
    'http://127.0.0.1./x', // trailing dot
    'http://127.000.000.001/x', // zero-padded decimal
    'http://0x7f.0x0.0x0.0x1/x', // hex per byte
    'http://0177.1/x', // octal, short
    'http://3232235777/x', // decimal 192.168.1.1
    'http://0xa9fea9fe/x', // hex 169.254.169.254
    'http://%31%32%37.0.0.1/x', // percent-encoded digits
    'http://[0:0:0:0:0:ffff:7f00:1]/x', // IPv4-mapped, expanded
    'http://[::ffff:a9fe:a9fe]/x', // IPv4-mapped metadata address, hex
    'http://[::127.0.0.1]/x', // IPv4-compatible (deprecated)
    'http://[0000::0001]/x',
    'http://[fec0::1]/x', // site-local
    'http://[ff02::1]/x', // multicast
  ])('refuses %s with zero lookups and zero dials', async (url) => {
    const { h, dialled, looked } = policyHandler();
    expect(code(await call(h, { url }))).toBe('policy_denied');
    expect(dialled).toEqual([]);
    expect(looked).toEqual([]);
  });

  it.each([
    ['localhost', ['127.0.0.1']],
    ['six.test', ['::1']],
    ['scoped.test', ['fe80::1%eth0']],
    ['mapped.test', ['2606:4700::1111', '::ffff:10.1.2.3']],
    ['garbage.test', ['not-an-address']],
  ])('refuses the name %s resolving to %j, zero dials', async (host, addresses) => {
    const { h, dialled } = policyHandler({ [host]: addresses });
    expect(code(await call(h, { url: `http://${host}:${api.port}/x` }))).toBe('policy_denied');
    expect(dialled).toEqual([]);
  });

  it('an oauth2 token URL on a private address is refused too, zero dials', async () => {
    const { h, dialled } = policyHandler();
    const out = await call(h, { url: `http://93.184.216.34:${api.port}/x` }, {}, 'oauth');
    expect(code(out)).toBe('policy_denied');
    expect(dialled).toEqual([]);
    expect(auth.connections + api.connections).toBe(0);
  });

  it('a public name dials exactly the address that was checked', async () => {
    const { h, dialled, looked } = policyHandler({ 'public.test': ['93.184.216.34'] });
    expect(code(await call(h, { url: `http://public.test:${api.port}/x` }))).toBe('success');
    expect(looked).toEqual(['public.test']);
    expect(dialled).toEqual(['93.184.216.34']);
  });
});
