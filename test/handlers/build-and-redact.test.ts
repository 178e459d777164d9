/**
 * Pure checks of request building and header redaction that the HTTP-level tests did not pin:
 * each one fails under a small fault seeded into the engine (docs/reliability.md).
 */
import { describe, expect, it } from 'vitest';
import { buildRequest, isBuildFailure } from '../../src/handlers/endpoint/build-request.js';
import { parseUrlTemplate } from '../../src/handlers/endpoint/url.js';
import { redactHeaders } from '../../src/handlers/endpoint/redact.js';
import { SecretSet } from '../../src/handlers/endpoint/secret-set.js';
import { clientBasicCredentials } from '../../src/handlers/endpoint/oauth2-token.js';
import { excerpt } from '../../src/handlers/endpoint/interpret-response.js';
import { withIdempotencyKey } from '../../src/handlers/endpoint/request-parts.js';
import { idempotencyKey } from '../../src/definition/side-effects.js';
import { makeContext, makeTool } from './helpers.js';

describe('buildRequest: body placement', () => {
  it('a JSON body leaves out the arguments used as path parameters', () => {
    const template = parseUrlTemplate('https://api.test/v1/users/{id}/orders');
    const built = buildRequest(template, 'body', { id: 'u7', item: 'pen', qty: 2 });
    if (isBuildFailure(built)) throw new Error(built.problem);
    expect(built.url.href).toBe('https://api.test/v1/users/u7/orders');
    expect(built.body).toBe('{"item":"pen","qty":2}');
    expect(built.contentType).toBe('application/json');
  });
});

describe('redactHeaders', () => {
  it.each(['authorization', 'proxy-authorization', 'cookie', 'x-api-key'])(
    'always redacts %s, even when no service declared it secret',
    (name) => {
      const out = redactHeaders({ [name]: 'session=abc123', accept: 'text/plain' }, new Set());
      expect(out).toEqual({ [name]: '[redacted]', accept: 'text/plain' });
    },
  );
});

describe('SecretSet', () => {
  it('a basic auth password echoed alone is scrubbed (not only the user:password pair)', () => {
    const set = new SecretSet();
    set.addServices({ b: { auth: { type: 'basic', username: 'ann', password: 'hunter22' } } });
    expect(set.scrubText('your password is hunter22!')).toBe('your password is [redacted]!');
  });

  it('a secret of exactly 4 characters is scrubbed; one of 3 is not', () => {
    const set = new SecretSet();
    set.add('k9Zq');
    set.add('abc');
    expect(set.size).toBe(1);
    expect(set.scrubText('key k9Zq, abc')).toBe('key [redacted], abc');
  });
});

describe('excerpt of an error body', () => {
  it('scrubs before the 200-character cut, so a secret across the cut leaves no prefix', () => {
    const set = new SecretSet();
    set.add('tok-ABCDEFGHIJKLMNOP');
    const body = Buffer.from(`${'x'.repeat(190)}tok-ABCDEFGHIJKLMNOP and more`);
    const text = excerpt(body, (t) => set.scrubText(t));
    expect(text).toBe(`${'x'.repeat(190)}[redacted…`);
    expect(text).not.toContain('tok-');
  });
});

describe('Idempotency-Key of an unsafe call', () => {
  const context = makeContext(
    makeTool({ endpoint: { url: 'https://api.test/orders', method: 'post' } }),
  );

  it('is added to our own headers', () => {
    const out = withIdempotencyKey({ accept: 'application/json' }, context, true);
    expect(out['idempotency-key']).toBe(idempotencyKey('sess_1', 'call_1'));
  });

  it("a service's own Idempotency-Key (any case) is kept, not joined by a second one", () => {
    const headers = { 'Idempotency-Key': 'svc-chosen', accept: 'application/json' };
    const out = withIdempotencyKey(headers, context, false);
    expect(out).toEqual(headers);
  });
});

describe('oauth2 client credentials', () => {
  it('form-encode id and secret before joining them (RFC 6749 2.3.1: a space is +)', () => {
    const basic = clientBasicCredentials({
      client_id: 'my app',
      client_secret: 's3cret:with space',
      auth_url: 'https://auth.test/token',
    });
    expect(Buffer.from(basic, 'base64').toString()).toBe('my+app:s3cret%3Awith+space');
  });
});
