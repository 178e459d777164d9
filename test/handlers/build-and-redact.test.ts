/**
 * Pure checks of request building and header redaction that the HTTP-level tests did not pin:
 * each one fails under a small fault seeded into the engine (docs/reliability.md).
 */
import { describe, expect, it } from 'vitest';
import { buildRequest, isBuildFailure } from '../../src/handlers/endpoint/build-request.js';
import { parseUrlTemplate } from '../../src/handlers/endpoint/url.js';
import { redactHeaders } from '../../src/handlers/endpoint/redact.js';

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
