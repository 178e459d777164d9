/**
 * Imports keep the vendor's meaning (issue 46, items 1-5): each published example that changed
 * meaning silently is imported, run through the transform or validator, and exported back.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';
import type { Platform } from '../../src/import/types.js';
import { transformCall } from '../../src/harness/transform-call.js';

function vendor(p: Platform, file: string) {
  const path = `fixtures/import/${p}/${file}`;
  return importTools(JSON.parse(readFileSync(path, 'utf8')), { from: p, file: path });
}

async function run(
  p: Platform,
  file: string,
  tool: string,
  args: Record<string, unknown>,
  vars: Record<string, unknown> = {},
) {
  const set = await loadTools({ tools: vendor(p, file).tools });
  return transformCall({ tools: set, tool, args: JSON.stringify(args), vars });
}

describe('Vapi', () => {
  it('keeps additionalProperties: false of the body: an extra argument is refused', async () => {
    const set = await loadTools({ tools: vendor('vapi', 'order-status.json').tools });
    const def = set.tools.get('getCoffeeOrderStatus')!;
    expect(def.tool.function.parameters['additionalProperties']).toBe(false);
    expect(def.validator.validate({ orderId: 47730 }).ok).toBe(true);
    expect(def.validator.validate({ orderId: 47730, extra: 1 }).ok).toBe(false);
    const out = exportTools(set, { to: 'vapi' });
    expect(out.tools[0]).toMatchObject({ body: { additionalProperties: false } });
  });

  it('translates Liquid nested in an object-valued static parameter; warns for one in a list', async () => {
    const { warnings } = vendor('vapi', 'static-parameters.json');
    const out = await run(
      'vapi',
      'static-parameters.json',
      'create_lead',
      {},
      { 'vars.transport.callSid': 'CA123', 'vars.session.source': '+1555' },
    );
    expect(out.ok && out.args).toMatchObject({
      org_id: 'my-org-123',
      priority: 1,
      metadata: {
        channel: 'voice',
        callId: 'CA123',
        routing: { department: 'sales', queue: 'priority' },
      },
    });
    const messages = warnings.map((w) => `${w.path}: ${w.message}`).join('\n');
    expect(messages).toMatch(
      /parameters\[3\]\.value\.callId: Vapi's call variable "transport\.callSid" has no switchboard system value/,
    );
    expect(messages).toMatch(
      /parameters\[3\]\.value\.tags\[1\]: the Liquid in "\{\{ customer\.number \}\}" sits in a list/,
    );
  });

  it("maps Vapi's call variables to session values: caller, number called, call id", async () => {
    const out = await run(
      'vapi',
      'static-parameters.json',
      'lookup_and_verify_user',
      { name: 'Steffen', email: 's@example.com' },
      { 'vars.session.source': '+15551234567', 'vars.session.target': '+18005551212' },
    );
    expect(out.ok && out.args).toMatchObject({
      caller_number: '+15551234567',
      called_number: '+18005551212',
      call_id: expect.any(String),
    });
  });

  it('exports static values as the documented parameters list, nested Liquid as written', async () => {
    const set = await loadTools({ tools: vendor('vapi', 'static-parameters.json').tools });
    const out = exportTools(set, { to: 'vapi' });
    const lead = out.tools[0] as { body: { properties: object }; parameters: unknown[] };
    expect(lead.body.properties).toEqual({});
    expect(lead.parameters).toEqual(
      JSON.parse(readFileSync('fixtures/import/vapi/static-parameters.json', 'utf8'))[0].parameters,
    );
  });

  it('a function tool with a server says at import that it exports back as apiRequest', () => {
    const { warnings } = vendor('vapi', 'static-parameters.json');
    expect(warnings.find((w) => w.path === 'tools[1].server.url')?.message).toMatch(
      /Exported back to Vapi it is an apiRequest tool/,
    );
  });
});

describe('ElevenLabs', () => {
  it("a GET's body description has no place in the query string: named at export", async () => {
    const tool = {
      type: 'webhook',
      name: 'find',
      description: 'Find a ticket.',
      api_schema: {
        url: 'https://support.test/find',
        method: 'GET',
        request_body_schema: {
          type: 'object',
          description: 'What to look for',
          properties: { q: { type: 'string', description: 'Words' } },
        },
      },
    };
    const set = await loadTools({ tools: importTools(tool, { from: 'elevenlabs' }).tools });
    expect(set.tools.get('find')!.tool.function.parameters['description']).toBe('What to look for');
    const out = exportTools(set, { to: 'elevenlabs' });
    expect(out.warnings.map((w) => w.field)).toEqual(['tool.function.parameters.description']);
  });

  it('placeholders in the query string become query arguments; literal values stay', async () => {
    const { tools, warnings } = vendor('elevenlabs', 'weather-open-meteo.json');
    expect(warnings).toEqual([]);
    expect(tools[0]).toMatchObject({
      type: 'endpoint',
      endpoint: {
        url: 'https://api.open-meteo.com/v1/forecast?current=temperature_2m,wind_speed_10m&hourly=temperature_2m,relative_humidity_2m,wind_speed_10m',
        method: 'get',
        argument_location: 'query',
      },
    });
  });

  it('a query placeholder under another key is named in a warning', () => {
    const { warnings } = importTools(
      {
        type: 'webhook',
        name: 'w',
        description: 'd',
        api_schema: {
          url: 'https://api.weather.test/f?lat={latitude}',
          method: 'GET',
          path_params_schema: { latitude: { type: 'string', description: 'x' } },
        },
      },
      { from: 'elevenlabs' },
    );
    expect(warnings.map((w) => w.message).join('\n')).toMatch(
      /query parameter "lat" takes \{latitude\}/,
    );
  });
});

describe('Retell', () => {
  it("exports query_params in the order Retell wrote them: the URL's literal pairs first", async () => {
    const set = await loadTools({ tools: vendor('retell', 'custom-get-availability.json').tools });
    const out = exportTools(set, { to: 'retell' });
    const query = (out.tools[0] as { query_params: Record<string, string> }).query_params;
    expect(Object.keys(query)).toEqual(['clinic', 'patient']);
  });

  it('exports a query key named __proto__ as a key, a value holding "=" whole, a repeated name once', async () => {
    const set = await loadTools({
      tools: [
        {
          tool: { type: 'function', function: { name: 'q', parameters: { type: 'object' } } },
          endpoint: { url: 'https://x.test/a?__proto__=1&sig=a=b&units=si', method: 'get' },
          static_parameters: [{ name: 'units', default: 'metric' }],
        },
      ],
    });
    const out = exportTools(set, { to: 'retell' });
    const query = (out.tools[0] as { query_params: Record<string, string> }).query_params;
    expect(Object.hasOwn(query, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect({ ...query }).toEqual({ ['__proto__']: '1', sig: 'a=b', units: 'si' });
    expect(out.warnings.map((w) => w.field)).toEqual(['static_parameters.units']);
  });

  it("names a URL query key written twice, which Retell's query_params cannot hold", async () => {
    const set = await loadTools({
      tools: [
        {
          tool: { type: 'function', function: { name: 'q', parameters: { type: 'object' } } },
          endpoint: { url: 'https://x.test/a?k=2&k=3', method: 'get' },
        },
      ],
    });
    const out = exportTools(set, { to: 'retell' });
    expect(out.tools[0]).toMatchObject({ url: 'https://x.test/a', query_params: { k: '2' } });
    expect(out.warnings.map((w) => w.message)).toEqual([
      `the URL's query has "k" more than once and Retell's query_params hold one value per name: only the first is exported`,
    ]);
  });

  it('a multi-state LLM becomes a step workflow: one step per state, starting state first', async () => {
    const { tools, warnings } = vendor('retell', 'multi-state-llm.json');
    expect(tools.map((t) => t.tool.function.name)).toEqual([
      'end_call',
      'transfer_to_support',
      'retell_states',
    ]);
    const task = tools[2]!.context!.task as {
      steps: { id: string; tools: { allow: string[] }; instructions: string[]; next: string[] }[];
    };
    expect(task.steps.map((s) => s.id)).toEqual(['information_collection', 'appointment_booking']);
    expect(task.steps[0]!.tools.allow).toEqual(['end_call', 'transfer_to_support']);
    expect(task.steps[1]!.tools.allow).toEqual(['end_call']);
    expect(task.steps[0]!.instructions[1]).toMatch(/go_to_step "appointment_booking"/);
    expect(task.steps[0]!.next).toEqual(['information_collection']);
    expect(warnings.map((w) => w.path)).toEqual(['states']);
    const set = await loadTools({ tools });
    expect(set.warnings.filter((w) => w.severity === 'error')).toEqual([]);
  });

  it('starts in starting_state; edge parameters and a missing destination are named', () => {
    const { tools, warnings } = importTools(
      {
        general_tools: [{ type: 'end_call', name: 'end_call' }],
        states: [
          { name: 'a', edges: [{ destination_state_name: 'nowhere', description: 'x' }] },
          {
            name: 'b',
            edges: [
              {
                destination_state_name: 'a',
                description: 'back',
                parameters: { type: 'object', properties: {} },
              },
            ],
          },
        ],
        starting_state: 'b',
      },
      { from: 'retell' },
    );
    const task = tools[1]!.context!.task as { steps: { id: string }[] };
    expect(task.steps.map((s) => s.id)).toEqual(['b', 'a']);
    const byPath = new Map(warnings.map((w) => [w.path, w.message]));
    expect(byPath.get('states[0].edges[0]')).toMatch(/"nowhere", which is no state/);
    expect(byPath.get('states[1].edges[0].parameters')).toMatch(/no place in go_to_step/);
  });
});

describe('Ultravox', () => {
  const get = {
    temporaryTool: {
      modelToolName: 'getCatFact',
      description: 'Returns back a random cat fact',
      http: { baseUrlPattern: 'https://catfact.ninja/fact', httpMethod: 'GET' },
    },
  };

  it('a GET with a BODY parameter imports its arguments in the query string, as switchboard sends them', async () => {
    const tool = structuredClone(get);
    Object.assign(tool.temporaryTool, {
      dynamicParameters: [
        { name: 'breed', location: 'PARAMETER_LOCATION_BODY', schema: { type: 'string' } },
      ],
    });
    const first = importTools([tool], { from: 'ultravox' });
    expect(first.tools[0]!.endpoint?.argument_location).toBe('query');
    expect(first.warnings.map((w) => w.field)).toEqual(['dynamicParameters[0].location']);
    const set = await loadTools({ tools: first.tools });
    expect(set.warnings).toEqual([]);
    const again = importTools(exportTools(set, { to: 'ultravox' }).tools, { from: 'ultravox' });
    expect(again.tools).toEqual(first.tools);
  });

  it('a GET without precomputable exports without it', async () => {
    const set = await loadTools({ tools: importTools([get], { from: 'ultravox' }).tools });
    const out = exportTools(set, { to: 'ultravox' });
    expect(out.tools[0]).toEqual(get);
  });

  it('precomputable on a POST round-trips; on a GET it is named at import', async () => {
    const post = structuredClone(get);
    Object.assign(post.temporaryTool, { precomputable: true });
    post.temporaryTool.http.httpMethod = 'POST';
    const set = await loadTools({ tools: importTools([post], { from: 'ultravox' }).tools });
    expect(exportTools(set, { to: 'ultravox' }).tools[0]).toMatchObject({
      temporaryTool: { precomputable: true },
    });
    const onGet = structuredClone(get);
    Object.assign(onGet.temporaryTool, { precomputable: true });
    const { warnings } = importTools([onGet], { from: 'ultravox' });
    expect(warnings.map((w) => w.field)).toEqual(['precomputable']);
  });
});

describe('Vapi spoken messages', () => {
  it('a start or delay phrase holding Liquid is named and left out (it would be spoken with braces)', () => {
    const { tools, warnings } = importTools(
      {
        type: 'function',
        function: { name: 'f' },
        messages: [
          { type: 'request-start', content: 'One moment, {{customer.name}}.' },
          {
            type: 'request-response-delayed',
            contents: [
              { type: 'text', text: 'Still on it.' },
              { type: 'text', text: 'Hold on {{ name }}', language: 'en' },
            ],
          },
        ],
      },
      { from: 'vapi' },
    );
    expect(tools[0]!.options?.speech?.before).toBeUndefined();
    expect(tools[0]!.options?.bridge_phrases).toEqual({ '*': ['Still on it.'] });
    const byPath = new Map(warnings.map((w) => [w.path, w.message]));
    expect(byPath.get('tools[0].messages[0].content')).toMatch(
      /\{\{customer\.name\}\}\) would be read out/,
    );
    expect(byPath.get('tools[0].messages[1].contents[1]')).toMatch(/\{\{name\}\}/);
  });
});

describe('malformed vendor JSON Schema keywords', () => {
  it('are removed with a warning naming the vendor path, so the import loads', async () => {
    const { tools, warnings } = importTools(
      {
        type: 'function',
        function: {
          name: 'f',
          parameters: {
            type: 'object',
            required: [1],
            properties: { a: { type: 5 }, b: { type: 'string', minLength: -1, minimum: -3 } },
          },
        },
      },
      { from: 'vapi' },
    );
    expect(warnings.map((w) => w.path).sort()).toEqual([
      'tools[0].function.parameters.properties.a.type',
      'tools[0].function.parameters.properties.b.minLength',
      'tools[0].function.parameters.required',
      'tools[0].server',
    ]);
    const set = await loadTools({ tools });
    expect(set.tools.get('f')!.validator.validate({ a: 1, b: '' }).ok).toBe(true);
  });
});

describe('a URL placeholder naming no parameter', () => {
  it('becomes a required string parameter, named in a warning at the vendor URL field', async () => {
    const { tools, warnings } = importTools(
      [
        {
          temporaryTool: {
            modelToolName: 'q',
            description: 'd',
            http: {
              baseUrlPattern: 'https://api.stocks.test/v1/{symbol}/price',
              httpMethod: 'GET',
            },
          },
        },
      ],
      { from: 'ultravox' },
    );
    expect(warnings.map((w) => `${w.path}: ${w.message}`)).toEqual([
      'tools[0].temporaryTool.http.baseUrlPattern: placeholder {symbol} names no parameter; added as a required string parameter the model fills',
    ]);
    const set = await loadTools({ tools });
    expect(set.tools.get('q')!.validator.validate({}).ok).toBe(false);
  });
});

describe('Vapi apiRequest URL variables', () => {
  it('{{orderNumber}} naming a body property is the argument, and exports back as Liquid', async () => {
    const { tools } = vendor('vapi', 'api-request-retry.json');
    expect(tools[0]!.static_parameters).toBeUndefined();
    const out = await run('vapi', 'api-request-retry.json', 'checkOrderStatus', {
      orderNumber: 'B-2',
    });
    expect(out.ok && out.args).toEqual({ orderNumber: 'B-2' });
    const exported = exportTools(await loadTools({ tools }), { to: 'vapi' });
    expect(exported.tools[0]).toMatchObject({
      url: 'https://api.yourcompany.com/orders/{{orderNumber}}',
    });
    expect(exported.warnings.map((w) => w.field)).not.toContain('endpoint.url');
  });
});

describe('Vapi apiRequest without a method', () => {
  it('is read as a POST, with a warning (Vapi requires the method)', () => {
    const { tools, warnings } = importTools(
      [{ type: 'apiRequest', name: 'notify', url: 'https://api.x.test/notify' }],
      { from: 'vapi' },
    );
    expect(tools[0]).toMatchObject({ endpoint: { method: 'post' } });
    expect(warnings).toEqual([
      expect.objectContaining({
        tool: 'notify',
        path: 'tools[0].method',
        message: 'no method; POST assumed',
      }),
    ]);
  });
});

describe('ElevenLabs system variables', () => {
  it('map to session values where switchboard has one; the others are named', () => {
    const { tools, warnings } = importTools(
      {
        type: 'webhook',
        name: 'log_call',
        description: 'd',
        api_schema: {
          url: 'https://api.calls.test/log',
          method: 'POST',
          request_body_schema: {
            type: 'object',
            properties: {
              caller: { type: 'string', dynamic_variable: 'system__caller_id' },
              called: { type: 'string', dynamic_variable: 'system__called_number' },
              sid: { type: 'string', dynamic_variable: 'system__call_sid' },
            },
          },
        },
      },
      { from: 'elevenlabs' },
    );
    expect(tools[0]!.static_parameters?.map((s) => s.default)).toEqual([
      '{{vars.session.source}}',
      '{{vars.session.target}}',
      '{{vars.system__call_sid}}',
    ]);
    expect(warnings.map((w) => w.message)).toEqual([
      'ElevenLabs\'s call variable "system__call_sid" has no switchboard system value; imported as the session variable vars.system__call_sid, which the host must set',
    ]);
  });
});

describe('vendor names like __proto__', () => {
  it('an ElevenLabs list-form property named __proto__ stays an own property, never a prototype', () => {
    const { tools } = importTools(
      {
        type: 'webhook',
        name: 'p',
        description: 'd',
        api_schema: {
          url: 'https://api.p.test/x',
          method: 'POST',
          path_params_schema: [],
          query_params_schema: [],
          request_body_schema: {
            id: 'body',
            type: 'object',
            properties: [{ id: '__proto__', type: 'string', description: 'x', required: true }],
          },
          request_headers: [],
        },
      },
      { from: 'elevenlabs' },
    );
    const props = tools[0]!.tool.function.parameters['properties'] as object;
    expect(Object.hasOwn(props, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(props)?.type).toBeUndefined();
    expect(JSON.parse(JSON.stringify(tools[0]!.tool.function.parameters))).toEqual(
      JSON.parse(
        '{"type":"object","properties":{"__proto__":{"type":"string","description":"x"}},"required":["__proto__"]}',
      ),
    );
  });
});

describe('credential warnings', () => {
  // A service with auth is refused without origins; the warning that asks for the service names
  // the origin to give, so following it yields a configuration createSession accepts.
  it('name the origins the service needs, from the tool URL', () => {
    const messages = (p: Platform, file: string) => vendor(p, file).warnings.map((w) => w.message);
    expect(messages('vapi', 'api-request.json')).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'services: { crm_prod: { auth: …, origins: ["https://crm.example.test"] } }',
        ),
        expect.stringContaining('and origins: ["https://bookings.example.test"])'),
      ]),
    );
    expect(messages('elevenlabs', 'webhook-post-ticket.json')).toEqual(
      expect.arrayContaining([
        expect.stringContaining('origins: ["https://support.example.test"]'),
      ]),
    );
    expect(messages('retell', 'custom-post-order.json')).toEqual(
      expect.arrayContaining([expect.stringContaining('origins: ["https://orders.example.test"]')]),
    );
  });
});
