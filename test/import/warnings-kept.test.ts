/**
 * Warnings an import must give and fields an export must keep (docs/import.md): each case is one
 * a seeded fault dropped without any other test noticing (docs/reliability.md).
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { transformCall } from '../../src/harness/transform-call.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';
import type { Platform } from '../../src/import/types.js';

function warnings(from: Platform, value: unknown): { field: string; message: string }[] {
  return importTools(value, { from }).warnings.map((w) => ({ field: w.field, message: w.message }));
}

function apiRequest(fields: Record<string, unknown>): Record<string, unknown>[] {
  return [
    { type: 'apiRequest', name: 'a', method: 'POST', url: 'https://api.x.test/a', ...fields },
  ];
}

describe('import warnings', () => {
  it('a URL on a subdomain of localhost is flagged as a loopback name', () => {
    const found = warnings('vapi', apiRequest({ url: 'http://admin.localhost:8080/a' }));
    expect(found).toContainEqual({
      field: 'url',
      message: expect.stringContaining('calls admin.localhost:8080, a loopback name'),
    });
  });

  it('a URL fragment is dropped with a warning', () => {
    const result = importTools(apiRequest({ url: 'https://api.x.test/a#section' }), {
      from: 'vapi',
    });
    expect(result.tools[0]!.endpoint!.url).toBe('https://api.x.test/a');
    expect(result.warnings.map((w) => w.message)).toContain(
      'the URL fragment is never sent; dropped',
    );
  });

  it('a variable in the host makes an action, and the warning says why', () => {
    const result = importTools(apiRequest({ url: 'https://{{tenant}}.api.x.test/a' }), {
      from: 'vapi',
    });
    expect(result.tools[0]!.type).toBe('action');
    expect(result.warnings.map((w) => w.message)).toContainEqual(
      expect.stringMatching(/^a variable in the URL scheme or host: not an endpoint URL/),
    );
  });

  it('a header whose value is "Bearer …" never has its value repeated, whatever its name', () => {
    const secret = 'sk_live_upstream_1';
    const headers = {
      type: 'object',
      properties: { 'X-Upstream': { type: 'string', value: `Bearer ${secret}` } },
    };
    const found = warnings('vapi', apiRequest({ headers }));
    expect(found.find((w) => w.field === 'headers.properties["X-Upstream"]')?.message).toContain(
      'carries a credential',
    );
    expect(JSON.stringify(found)).not.toContain(secret);
  });

  it('a signature header is a credential: its value is not repeated', () => {
    const headers = {
      type: 'object',
      properties: { 'X-Signature': { type: 'string', value: 'hmac-3f9a7c' } },
    };
    const found = warnings('vapi', apiRequest({ headers }));
    expect(JSON.stringify(found)).not.toContain('hmac-3f9a7c');
  });

  it('a Content-Type header in any case needs no service: switchboard sets it', () => {
    const headers = {
      type: 'object',
      properties: { 'Content-Type': { type: 'string', value: 'application/json' } },
    };
    const result = importTools(apiRequest({ headers }), { from: 'vapi' });
    expect(result.tools[0]).not.toHaveProperty('service');
    expect(result.warnings.map((w) => w.message)).toContain(
      'switchboard sets content-type from argument_location; header not imported',
    );
  });

  it("a timeout above switchboard's 120 s is clamped with a warning, and loads", async () => {
    const result = importTools(apiRequest({ timeoutSeconds: 200 }), { from: 'vapi' });
    expect(result.tools[0]!.endpoint!.timeout).toBe(120);
    expect(result.warnings.map((w) => w.message)).toContain(
      "200 s is above switchboard's maximum timeout; 120 s is used",
    );
    await expect(loadTools({ tools: result.tools })).resolves.toBeDefined();
  });

  it('a tool imported as an action names no service (only an endpoint calls one), and loads', async () => {
    const result = importTools(
      apiRequest({ url: 'https://{{tenant}}.api.x.test/a', credentialId: 'crm' }),
      { from: 'vapi' },
    );
    expect(result.tools[0]!.type).toBe('action');
    expect(result.tools[0]).not.toHaveProperty('service');
    await expect(loadTools({ tools: result.tools })).resolves.toBeDefined();
  });

  it('a Vapi rejectionPlan (rules switchboard has no equivalent for) is named, not dropped', () => {
    const rejectionPlan = {
      conditions: [{ type: 'regex', regex: 'cancel', target: { role: 'user' } }],
    };
    expect(warnings('vapi', apiRequest({ rejectionPlan }))).toContainEqual({
      field: 'rejectionPlan',
      message: expect.stringContaining('no switchboard equivalent'),
    });
  });

  it("a Vapi body property's empty default (what the dashboard writes for none) is no default", async () => {
    const body = { type: 'object', properties: { note: { type: 'string', default: '' } } };
    const result = importTools(apiRequest({ body }), { from: 'vapi' });
    expect(result.tools[0]).not.toHaveProperty('defaults');
    const set = await loadTools({ tools: result.tools });
    const out = transformCall({ tools: set, tool: 'a', args: {}, vars: {} });
    expect(out.ok && out.args).toEqual({});
  });

  it("a Retell custom tool without args_at_root (Retell's default: the envelope) is warned", () => {
    const tool = { type: 'custom', name: 'r', url: 'https://api.x.test/r', method: 'POST' };
    expect(warnings('retell', [tool])).toContainEqual({
      field: 'args_at_root',
      message: expect.stringContaining('Retell POSTs { call, name, args }'),
    });
  });
});

describe('export keeps the fields that say how the call is made', () => {
  it('a Retell custom tool is written with args_at_root: true (the body switchboard sends)', async () => {
    const tool = {
      type: 'custom',
      name: 'r',
      url: 'https://api.x.test/r',
      method: 'POST',
      args_at_root: true,
    };
    const set = await loadTools({ tools: importTools([tool], { from: 'retell' }).tools });
    const out = exportTools(set, { to: 'retell' }).tools[0] as Record<string, unknown>;
    expect(out['args_at_root']).toBe(true);
    expect(warnings('retell', [out]).map((w) => w.field)).not.toContain('args_at_root');
  });

  it("a URL's encoded query values are written to Retell's query_params decoded (Retell encodes them)", async () => {
    const set = await loadTools({
      tools: [
        {
          type: 'endpoint',
          tool: { type: 'function', function: { name: 'r', parameters: { type: 'object' } } },
          endpoint: {
            url: 'https://api.x.test/r?q=a%20b%26c',
            method: 'post',
            argument_location: 'body',
          },
        },
      ],
    });
    const out = exportTools(set, { to: 'retell' }).tools[0] as Record<string, unknown>;
    expect(out['url']).toBe('https://api.x.test/r');
    expect(out['query_params']).toEqual({ q: 'a b&c' });
  });
});

describe('import keeps how a tool runs', () => {
  it('an ElevenLabs execution_mode "async" runs in the background', () => {
    const tool = {
      type: 'webhook',
      name: 'w',
      execution_mode: 'async',
      api_schema: { url: 'https://api.x.test/w', method: 'POST' },
    };
    const imported = importTools([tool], { from: 'elevenlabs' });
    expect(imported.tools[0]!.options).toMatchObject({ background: true });
  });

  it('an ElevenLabs webhook without a method is a GET (its default)', () => {
    const tool = { type: 'webhook', name: 'w', api_schema: { url: 'https://api.x.test/w' } };
    expect(importTools([tool], { from: 'elevenlabs' }).tools[0]!.endpoint!.method).toBe('get');
  });

  it('an ElevenLabs assignment from anything but the response is not saved, and is named', () => {
    const tool = {
      type: 'webhook',
      name: 'w',
      api_schema: { url: 'https://api.x.test/w', method: 'POST' },
      assignments: [{ source: 'request', dynamic_variable: 'order', value_path: 'order.id' }],
    };
    const imported = importTools([tool], { from: 'elevenlabs' });
    expect(imported.tools[0]!.options?.save).toBeUndefined();
    expect(imported.warnings.map((w) => w.message)).toContain(
      'source "request" is not the response; not imported',
    );
  });

  it('an ElevenLabs form-encoded webhook sends a form, and is exported as one', async () => {
    const tool = {
      type: 'webhook',
      name: 'w',
      api_schema: {
        url: 'https://api.x.test/w',
        method: 'POST',
        content_type: 'application/x-www-form-urlencoded',
        request_body_schema: { type: 'object', properties: { q: { type: 'string' } } },
      },
    };
    const imported = importTools([tool], { from: 'elevenlabs' }).tools;
    expect(imported[0]!.endpoint!.argument_location).toBe('form');
    const set = await loadTools({ tools: imported });
    const back = exportTools(set, { to: 'elevenlabs' }).tools[0] as {
      api_schema: Record<string, unknown>;
    };
    expect(back.api_schema['content_type']).toBe('application/x-www-form-urlencoded');
  });

  it('an Ultravox parameterOverride fixes a required parameter: no longer asked of the model', async () => {
    const tool = {
      temporaryTool: {
        modelToolName: 'u',
        http: { baseUrlPattern: 'https://api.x.test/u', httpMethod: 'POST' },
        dynamicParameters: [
          {
            name: 'region',
            location: 'PARAMETER_LOCATION_BODY',
            schema: { type: 'string' },
            required: true,
          },
        ],
      },
      parameterOverrides: { region: 'eu' },
    };
    const imported = importTools([tool], { from: 'ultravox' }).tools;
    expect(imported[0]!.tool.function.parameters['required']).toBeUndefined();
    const set = await loadTools({ tools: imported });
    const out = transformCall({ tools: set, tool: 'u', args: {}, vars: {} });
    expect(out.ok && out.args).toEqual({ region: 'eu' });
  });
});
