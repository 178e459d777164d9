import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { def, loadErrors, loadWarnings } from './helpers.js';

const endpoint = (patch: Record<string, unknown> = {}) => ({
  type: 'endpoint',
  endpoint: { url: 'https://api.test/v1/items', method: 'get', ...patch },
});

describe('malformed fields: one error each, with path and message', () => {
  const cases: [string, Record<string, unknown>, string, string | RegExp][] = [
    [
      'bad method',
      endpoint({ method: 'patch' }),
      'tools[0].endpoint.method',
      'expected one of get|post|put|delete, got "patch"',
    ],
    [
      'bad type',
      { type: 'webhook' },
      'tools[0].type',
      'expected one of action|endpoint|context|log|command, got "webhook"',
    ],
    [
      'bad location',
      endpoint({ argument_location: 'header' }),
      'tools[0].endpoint.argument_location',
      'expected one of body|form|path|query, got "header"',
    ],
    [
      'timeout too small',
      endpoint({ timeout: 0 }),
      'tools[0].endpoint.timeout',
      'must be at least 1 second',
    ],
    [
      'timeout too large',
      endpoint({ timeout: 121 }),
      'tools[0].endpoint.timeout',
      'must be at most 120 seconds',
    ],
    [
      'timeout not a number',
      endpoint({ timeout: '20' }),
      'tools[0].endpoint.timeout',
      /expected a number of seconds, got "20"/,
    ],
    [
      'missing url',
      { type: 'endpoint', endpoint: { method: 'get' } },
      'tools[0].endpoint.url',
      'is required',
    ],
    ['missing tool', { tool: undefined }, 'tools[0].tool', 'is required'],
    [
      'bad name',
      { tool: { type: 'function', function: { name: 'has space' } } },
      'tools[0].tool.function.name',
      /letters, digits/,
    ],
    [
      'static type',
      { static_parameters: [{ name: 'u', type: 'float' }] },
      'tools[0].static_parameters[0].type',
      'expected one of string|int|boolean|data_source_list, got "float"',
    ],
    [
      'static value type',
      { static_parameters: [{ name: 'u', type: 'int', default: 1.5 }] },
      'tools[0].static_parameters[0].default',
      'expected an integer, got 1.5',
    ],
    [
      'static list type',
      { static_parameters: [{ name: 'u', type: 'data_source_list', default: [1] }] },
      'tools[0].static_parameters[0].default',
      'expected a list of strings, got [1]',
    ],
    [
      'propagate not boolean',
      { options: { propagate_tool_result: 'yes' } },
      'tools[0].options.propagate_tool_result',
      /expected a boolean/,
    ],
    [
      'bad save expression',
      { options: { save: [{ from: 'a[', to: 'x' }] } },
      'tools[0].options.save[0].from',
      /invalid JMESPath/,
    ],
    [
      'schema typo',
      {
        tool: {
          type: 'function',
          function: { name: 't', parameters: { type: 'object', propertiez: {} } },
        },
      },
      'tools[0].tool.function.parameters.propertiez',
      'is not a JSON Schema keyword (did you mean "properties"?)',
    ],
    [
      'schema $data',
      {
        tool: {
          type: 'function',
          function: {
            name: 't',
            parameters: { type: 'object', properties: { a: { const: { $data: '1/b' } } } },
          },
        },
      },
      'tools[0].tool.function.parameters.properties.a.const.$data',
      '$data references are not allowed',
    ],
  ];
  for (const [title, patch, path, message] of cases) {
    it(title, async () => {
      const issues = await loadErrors([def(patch)]);
      const issue = issues.find((i) => i.path === path);
      expect(issue, JSON.stringify(issues)).toBeDefined();
      if (typeof message === 'string') expect(issue!.message).toBe(message);
      else expect(issue!.message).toMatch(message);
    });
  }
});

describe('URL rules (load errors)', () => {
  const urls: [string, RegExp][] = [
    ['https://{host}/v1', /only in the path/],
    ['https://api.test:{port}/v1', /only in the path/],
    ['{scheme}://api.test/v1', /not an absolute http/],
    ['https://user:pw@api.test/v1', /credentials/],
    ['ftp://api.test/v1', /scheme must be http or https/],
    ['https://api.test/v1?x={id}', /not in the query string/],
    ['https://api.test/v1#frag', /fragment/],
    ['https://api.test/v1/{id', /unbalanced/],
  ];
  for (const [url, message] of urls) {
    it(url, async () => {
      const issues = await loadErrors([
        def({ type: 'endpoint', endpoint: { url, method: 'get' } }),
      ]);
      expect(issues.find((i) => i.path === 'tools[0].endpoint.url')?.message).toMatch(message);
    });
  }
});

describe('semantic lint', () => {
  it('type endpoint without endpoint is an error', async () => {
    const issues = await loadErrors([def({ type: 'endpoint' })]);
    expect(issues).toContainEqual(
      expect.objectContaining({ code: 'missing_endpoint', path: 'tools[0].type' }),
    );
  });

  it('a path placeholder with no parameter is an error', async () => {
    const issues = await loadErrors([
      def({ type: 'endpoint', endpoint: { url: 'https://api.test/v1/{nope}', method: 'get' } }),
    ]);
    expect(issues).toContainEqual(
      expect.objectContaining({
        code: 'unknown_path_param',
        path: 'tools[0].endpoint.url',
        message: expect.stringContaining('{nope}'),
      }),
    );
  });

  it('a placeholder filled by a static parameter or a default is fine', async () => {
    await expect(
      loadTools([
        def({
          type: 'endpoint',
          endpoint: {
            url: 'https://api.test/{v}/{id}/{kind}',
            method: 'get',
            argument_location: 'path',
          },
          static_parameters: [{ name: 'v', default: 'v1' }],
          defaults: { kind: 'pets' },
        }),
      ]),
    ).resolves.toBeDefined();
  });

  it('get or delete with body or form is a warning, and the arguments go to the query string', async () => {
    for (const [method, location] of [
      ['get', 'body'],
      ['delete', 'form'],
    ]) {
      const set = await loadTools([
        def({
          type: 'endpoint',
          endpoint: { url: 'https://api.test/v1', method, argument_location: location },
        }),
      ]);
      expect(set.warnings).toContainEqual(
        expect.objectContaining({
          code: 'body_without_method',
          severity: 'warning',
          path: 'tools[0].endpoint.argument_location',
        }),
      );
      expect(set.tools.get('lookup')?.endpoint?.argumentLocation).toBe('query');
    }
  });

  it('duplicate tool names are an error naming both places', async () => {
    const issues = await loadErrors([def(), def()]);
    expect(issues).toContainEqual(
      expect.objectContaining({
        code: 'duplicate_tool',
        path: 'tools[1].tool.function.name',
        message: 'duplicate tool name "lookup" (first defined at tools[0])',
      }),
    );
  });

  it('a required static parameter with no value is an error', async () => {
    const issues = await loadErrors([
      def({ static_parameters: [{ name: 'api_key_id', required: true }] }),
    ]);
    expect(issues).toContainEqual(
      expect.objectContaining({ code: 'static_required', path: 'tools[0].static_parameters[0]' }),
    );
  });

  it('a rule with both value and format is an error', async () => {
    const issues = await loadErrors([
      def({ defaults: { city: { transform: { value: 'x', format: '{id}' } } } }),
    ]);
    expect(
      issues.some(
        (i) =>
          i.path.startsWith('tools[0].defaults') && /value.*format|format.*value/.test(i.message),
      ),
    ).toBe(true);
  });

  it('an unknown @verb is an error that says how to write a literal', async () => {
    const issues = await loadErrors([def({ defaults: { city: '@replace Paris' } })]);
    const issue = issues.find((i) => i.path.startsWith('tools[0].defaults'));
    expect(issue?.message).toContain('{"transform":{"value":"@');
  });

  it('a format naming a parameter that exists nowhere is a warning', async () => {
    const warnings = await loadWarnings([def({ defaults: { city: 'near {landmark}' } })]);
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: 'unknown_template_field',
        severity: 'warning',
        message: expect.stringContaining('{landmark}'),
      }),
    );
  });

  it('templates over session variables and created keys are not warned about', async () => {
    const warnings = await loadWarnings([
      def({
        defaults: { hospital: '{vars.hospital}', greeting: 'Hi {params.city} at {hospital}' },
      }),
    ]);
    expect(warnings.filter((w) => w.code === 'unknown_template_field')).toEqual([]);
  });

  it('a when.key naming an unknown parameter is a warning', async () => {
    const warnings = await loadWarnings([
      def({
        defaults: {
          city: {
            transform: { action: 'override', when: { key: 'borough', value: 'Bronx' }, value: 'x' },
          },
        },
      }),
    ]);
    expect(warnings).toContainEqual(
      expect.objectContaining({ code: 'unknown_when_key', severity: 'warning' }),
    );
  });

  it('a required name not declared in properties is a warning naming it', async () => {
    const schema = (required: string[]) =>
      def({
        tool: {
          type: 'function',
          function: {
            name: 'book',
            description: 'Book',
            parameters: { type: 'object', properties: { date: { type: 'string' } }, required },
          },
        },
      });
    expect(await loadWarnings([schema(['date', 'time'])])).toContainEqual(
      expect.objectContaining({
        code: 'unknown_required',
        path: 'tools[0].tool.function.parameters.required',
        message: '"time" is required but not declared in properties',
      }),
    );
    const clean = await loadWarnings([schema(['date'])]);
    expect(clean.filter((w) => w.code === 'unknown_required')).toEqual([]);
    // A required static parameter is declared (and hidden from the model), not unknown.
    const withStatic = await loadWarnings([
      {
        ...schema(['date', 'clinic']),
        static_parameters: [{ name: 'clinic', type: 'string', default: 'Queens' }],
      },
    ]);
    expect(withStatic.filter((w) => w.code === 'unknown_required')).toEqual([]);
  });

  it('unknown top-level fields are warnings; strict mode makes warnings errors', async () => {
    const warnings = await loadWarnings([def({ colour: 'blue' })]);
    expect(warnings).toContainEqual(
      expect.objectContaining({ code: 'unknown_field', path: 'tools[0].colour' }),
    );
    await expect(loadTools([def({ colour: 'blue' })], { strict: true })).rejects.toThrow(
      /tools\[0\]\.colour/,
    );
    // A misspelt field is ignored too, so the warning names the field it was meant to be.
    const typo = await loadWarnings([def({ defualts: { a: 1 }, static_parameter: [] })]);
    expect(typo.filter((w) => w.code === 'unknown_field').map((w) => w.message)).toEqual([
      'is not a field of a tool definition (did you mean `defaults`?); ignored',
      'is not a field of a tool definition (did you mean `static_parameters`?); ignored',
    ]);
    // A required choice left out says so (was "expected one of …, got undefined").
    const noMethod = await loadErrors([
      def({ type: 'endpoint', endpoint: { url: 'https://a.test/x', methd: 'get' } }),
    ]);
    expect(noMethod.map((i) => `${i.path}: ${i.message}`)).toContain(
      'tools[0].endpoint.method: is required: one of get|post|put|delete',
    );
    // Inside endpoint, tool, tool.function and options too (the shape check drops them).
    const nested = await loadWarnings([
      {
        ...def({}),
        endpoint: { url: 'https://a.test/x', method: 'get', methd: 'post' },
        options: { propagate_tool_results: true },
        tool: {
          type: 'function',
          strict: true,
          function: { name: 'lookup', descripton: 'Look it up', parameters: { type: 'object' } },
        },
      },
    ]);
    expect(
      nested.filter((w) => w.code === 'unknown_field').map((w) => `${w.path}: ${w.message}`),
    ).toEqual([
      'tools[0].endpoint.methd: is not a field of an endpoint (did you mean `method`?); ignored',
      'tools[0].options.propagate_tool_results: is not a field of options (did you mean `propagate_tool_result`?); ignored',
      // OpenAI's `strict` sits in the function object, not beside it.
      'tools[0].tool.strict: is not a field of a tool; `strict` is a field of `tool.function` (indent it under `function:`); ignored',
      'tools[0].tool.function.descripton: is not a field of a function (did you mean `description`?); ignored',
    ]);
  });

  it('a definition field indented one level too deep is named as such, not as unknown', async () => {
    // `service:` under `endpoint:` in YAML: the credentials would silently never be sent.
    const slipped = await loadWarnings([
      {
        ...def({}),
        endpoint: { url: 'https://a.test/x', method: 'get', service: 'pbx' },
        options: { defaults: { a: 1 } },
        tool: {
          type: 'function',
          parameters: { type: 'object' },
          function: { name: 'lookup', parameters: { type: 'object' }, result: { ok: true } },
        },
      },
    ]);
    expect(
      slipped.filter((w) => w.code === 'unknown_field').map((w) => `${w.path}: ${w.message}`),
    ).toEqual([
      'tools[0].endpoint.service: is not a field of an endpoint; `service` is a field of the tool definition, beside `tool` (indented one level too deep?); ignored',
      'tools[0].options.defaults: is not a field of options; `defaults` is a field of the tool definition, beside `tool` (indented one level too deep?); ignored',
      'tools[0].tool.parameters: is not a field of a tool; `parameters` is a field of `tool.function` (indent it under `function:`); ignored',
      'tools[0].tool.function.result: is not a field of a function; `result` is a field of the tool definition, beside `tool` (indented one level too deep?); ignored',
    ]);
  });

  it('prototype-polluting keys are load errors and pollute nothing', async () => {
    for (const key of ['__proto__.x', 'constructor.prototype.x', 'a.__proto__.b']) {
      const defaults = JSON.parse(`{${JSON.stringify(key)}: "1"}`) as Record<string, unknown>;
      const issues = await loadErrors([def({ defaults })]);
      expect(issues.some((i) => i.path.startsWith('tools[0].defaults'))).toBe(true);
      expect(({} as Record<string, unknown>)['x']).toBeUndefined();
    }
  });

  it('degenerate keys are load errors', async () => {
    for (const key of ['a..b', '.a', 'a.', '']) {
      const issues = await loadErrors([def({ defaults: { [key]: 1 } })]);
      expect(
        issues.some((i) => i.path.startsWith('tools[0].defaults')),
        key,
      ).toBe(true);
    }
  });

  it('reports every problem of every tool at once', async () => {
    const issues = await loadErrors([def({ type: 'endpoint' }), def({ type: 'nope' }, 'b')]);
    expect(issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['tools[0].type', 'tools[1].type']),
    );
  });
});

describe('example tool sets', () => {
  for (const file of ['clinic.json', 'weather.yaml', 'language.json', 'telephony.json']) {
    it(`${file} loads without warnings`, async () => {
      const set = await loadTools(`fixtures/tools/${file}`);
      expect(set.warnings).toEqual([]);
      expect(set.tools.size).toBeGreaterThan(0);
    });
  }
});

describe('one pass reports everything', () => {
  it('a definition with a shape error still has its rules, URL and name checked', async () => {
    const issues = await loadErrors([
      def({
        type: 'endpoint',
        endpoint: { url: 'https://{host}/v1', method: 'patch' },
        defaults: { id: '@replace x' },
      }),
      def({ type: 'bogus' }),
    ]);
    expect(issues.map((i) => i.code)).toEqual(
      expect.arrayContaining(['schema', 'unknown_verb', 'bad_url', 'duplicate_tool']),
    );
  });

  it('rule paths bracket the key', async () => {
    const warnings = await loadWarnings([def({ defaults: { city: 'near {landmark}' } })]);
    expect(warnings[0]?.path).toBe('tools[0].defaults["city"]');
  });
});

describe('mustache templates are checked at load', () => {
  it('in descriptions, static parameter values and context results', async () => {
    const issues = await loadErrors([
      def({
        tool: {
          type: 'function',
          function: {
            name: 'm',
            description: 'Hi {{#vars.x}} unclosed',
            parameters: { type: 'object', properties: {} },
          },
        },
        static_parameters: [{ name: 'who', default: '{{vars.name' }],
      }),
      def({ type: 'context', result: { text: 'Now {{/vars.y}}' } }, 'ctx'),
    ]);
    const paths = issues.filter((i) => i.code === 'template_syntax').map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'tools[0].tool.function.description',
        'tools[0].static_parameters[0].default',
        'tools[1].result.text',
      ]),
    );
  });
});
