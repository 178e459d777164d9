import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { toChatTools } from '../../src/definition/export.js';
import { def, loadErrors, loadWarnings } from './helpers.js';

const VIEW = { vars: {}, session: {} };

/** The function schema the model would see for the only tool. */
async function modelParameters(definition: unknown): Promise<unknown> {
  const set = await loadTools([definition]);
  return toChatTools(set, VIEW)[0]?.function.parameters;
}

function codes(issues: readonly { code: string }[]): string[] {
  return issues.map((i) => i.code);
}

describe('lenient where Syllable is lenient (each normalisation warns by name)', () => {
  it('parameters as a bare property map becomes an object schema', async () => {
    const bare = {
      city: { type: 'string', description: 'The city' },
      type: { type: 'string', description: 'a property named "type"' },
    };
    const raw = def({ tool: { function: { name: 'lookup', parameters: bare } } });
    expect(await modelParameters(raw)).toEqual({ type: 'object', properties: bare });
    const warnings = await loadWarnings([raw]);
    expect(warnings).toContainEqual(
      expect.objectContaining({
        code: 'parameters_property_map',
        severity: 'warning',
        path: 'tools[0].tool.function.parameters',
      }),
    );
  });

  it('a map with any value that is not a schema object is not read as a property map', async () => {
    // `x: true` is a valid (boolean) subschema, so reading this as a property map would load it;
    // only a map whose every value is an object is one, anything else is an unknown keyword.
    const raw = def({
      tool: { function: { name: 'lookup', parameters: { city: { type: 'string' }, x: true } } },
    });
    const issues = await loadErrors([raw]);
    expect(issues.map((i) => i.path)).toEqual([
      'tools[0].tool.function.parameters.city',
      'tools[0].tool.function.parameters.x',
    ]);
    expect(issues[0]?.message).toMatch(/not a JSON Schema keyword/);
  });

  it('parameters {} becomes an empty object schema (OpenAI refuses a schema without a type)', async () => {
    const raw = def({ tool: { type: 'function', function: { name: 'lookup', parameters: {} } } });
    expect(await modelParameters(raw)).toEqual({ type: 'object', properties: {} });
    expect(codes(await loadWarnings([raw]))).toEqual(['parameters_empty']);
  });

  it('a schema with properties and no type gets "type": "object"', async () => {
    const raw = def({
      tool: {
        type: 'function',
        function: { name: 'lookup', parameters: { properties: { a: { type: 'string' } } } },
      },
    });
    expect(await modelParameters(raw)).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
    });
    expect(codes(await loadWarnings([raw]))).toEqual(['parameters_type_missing']);
  });

  it('parameters that are not an object (an SDK placeholder) mean no parameters', async () => {
    const raw = def({
      tool: { type: 'function', function: { name: 'lookup', parameters: '<value>' } },
    });
    expect(await modelParameters(raw)).toEqual({ type: 'object', properties: {} });
    expect(codes(await loadWarnings([raw]))).toEqual(['parameters_ignored']);
  });

  it('a real JSON Schema is left alone, even with a property named "properties"-like keys', async () => {
    const schema = {
      type: 'object',
      properties: { type: { type: 'string' } },
      required: ['type'],
    };
    const raw = def({
      tool: { type: 'function', function: { name: 'lookup', parameters: schema } },
    });
    expect(await modelParameters(raw)).toEqual(schema);
    expect(await loadWarnings([raw])).toEqual([]);
  });

  it('tool without "type": "function" is read as a function, with a warning', async () => {
    const raw = def({ tool: { function: { name: 'lookup', parameters: { type: 'object' } } } });
    const warnings = await loadWarnings([raw]);
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'tool_type_missing', path: 'tools[0].tool' }),
    ]);
    const set = await loadTools([raw]);
    expect(toChatTools(set, VIEW)[0]?.type).toBe('function');
  });

  it('a tool type other than "function" is still an error', async () => {
    const issues = await loadErrors([
      def({ tool: { type: 'web_search', function: { name: 'lookup' } } }),
    ]);
    expect(issues[0]).toMatchObject({ path: 'tools[0].tool.type' });
  });

  it('null in a nullable Syllable field means "not set" and loads silently', async () => {
    const raw = {
      type: 'endpoint',
      tool: {
        type: 'function',
        function: { name: 'lookup', description: null, parameters: { type: 'object' } },
      },
      endpoint: {
        url: 'https://api.test/v1',
        method: 'get',
        argument_location: 'query',
        timeout: null,
      },
      context: null,
      defaults: {
        a: { transform: { action: 'default', when: null, value: null, format: 'x' } },
        b: {
          transform: {
            action: 'override',
            value: 1,
            when: { key: 'a', value: 'x', operator: null },
          },
        },
      },
      static_parameters: [
        { name: 's', type: 'string', required: false, description: null, default: null },
      ],
      result: null,
      options: { propagate_tool_result: null },
      service: null,
    };
    const set = await loadTools([raw]);
    expect(set.warnings.filter((w) => w.code !== 'unknown_template_field')).toEqual([]);
    const tool = set.tools.get('lookup')!;
    expect(tool.endpoint?.timeoutSecs).toBe(20);
    expect(tool.hasResult).toBe(false);
    expect(tool.options.propagateToolResult).toBe(false);
    // `operator: null` is "eq": b's condition holds once a is set.
    const out = tool.defaults.apply({}, { vars: {} });
    expect(out.ok && out.args).toEqual({ a: 'x', b: 1 });
  });

  it('null in the camelCase spelling of options.propagateToolResult is "not set" too', async () => {
    const set = await loadTools([def({ options: { propagateToolResult: null } })]);
    expect(set.warnings).toEqual([]);
    expect(set.tools.get('lookup')!.options.propagateToolResult).toBe(false);
  });

  it('a Syllable API tool object ({ name, definition, service_id }) loads its definition', async () => {
    const api = { name: 'Lookup', service_id: 4, id: 9, definition: def() };
    const set = await loadTools([api]);
    expect([...set.tools.keys()]).toEqual(['lookup']);
    // What the API returns around a definition is bookkeeping: no warning, so `strict` (CI)
    // accepts a tool exported from Syllable as it is.
    expect(set.warnings).toEqual([]);
    await expect(loadTools([api], { strict: true })).resolves.toBeDefined();
    // Problems inside are reported under `definition`.
    const issues = await loadErrors([{ name: 'x', definition: def({ type: 'nope' }) }]);
    expect(issues[0]).toMatchObject({ path: 'tools[0].definition.type' });
  });

  it("every field of Syllable's ToolResponse, either spelling, loads without a warning", async () => {
    const wire = {
      name: 'Lookup',
      definition: def(),
      service_id: 4,
      id: 9,
      last_updated_comments: null,
      service_name: null,
      prompts_info: [{ id: 1, name: 'p' }],
      agents_info: [],
      last_updated: '2026-01-01T00:00:00Z',
      last_updated_by: 'a@b.c',
      version_number: 3,
      validation_issues: [],
    };
    const sdk = {
      name: 'Lookup',
      definition: def({}, 'b'),
      serviceId: 4,
      id: 9,
      lastUpdatedComments: 'x',
      promptsInfo: [],
      agentsInfo: null,
      lastUpdated: '2026-01-01T00:00:00Z',
      lastUpdatedBy: 'a@b.c',
      versionNumber: 3,
      validationIssues: null,
    };
    const set = await loadTools([wire, sdk]);
    expect([...set.tools.keys()]).toEqual(['lookup', 'b']);
    expect(set.warnings).toEqual([]);
  });

  it('an API object with fields Syllable does not define, or with recorded issues, is warned', async () => {
    const set = await loadTools([
      { name: 'a', service_id: 4, sevice_name: 'clinic', definition: def({}, 'a') },
      { name: 'b', validation_issues: [{ message: 'x' }, {}], definition: def({}, 'b') },
    ]);
    expect(set.warnings).toEqual([
      expect.objectContaining({
        code: 'api_object',
        path: 'tools[0]',
        message: expect.stringContaining('("sevice_name" ignored)'),
      }),
      expect.objectContaining({
        code: 'api_object',
        path: 'tools[1]',
        message: expect.stringContaining('Syllable recorded 2 validation issue(s) on it'),
      }),
    ]);
    await expect(
      loadTools([{ name: 'a', x: 1, definition: def() }], { strict: true }),
    ).rejects.toThrow(/"x" ignored/);
  });

  it("an API tool object's service_name is the tool's service, so its auth applies", async () => {
    // Syllable keeps auth on the service a tool belongs to; `syllable tools get -o json` and the
    // SDK's ToolResponse name it `service_name` (`serviceName` in the TypeScript SDK).
    const set = await loadTools([
      { name: 'a', service_id: 4, service_name: 'clinic', definition: def({}, 'a') },
      { name: 'b', serviceId: 4, serviceName: 'clinic', definition: def({}, 'b') },
      { name: 'c', service_name: 'clinic', definition: def({ service: 'own' }, 'c') },
      { name: 'd', service_name: 'clinic', definition: def({ service: null }, 'd') },
      { name: 'e', service_name: null, definition: def({}, 'e') },
      { name: 'f', service_name: 'own', definition: def({ service: 'own' }, 'f') },
    ]);
    const services = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => set.tools.get(n)?.service);
    expect(services).toEqual(['clinic', 'clinic', 'own', 'clinic', undefined, 'own']);
    // Only c is warned: its service_name names another service than its definition does.
    expect(set.warnings).toEqual([
      expect.objectContaining({
        code: 'api_object',
        path: 'tools[2]',
        message: expect.stringContaining(
          'its service_name "clinic" ignored: the definition names "service"',
        ),
      }),
    ]);
  });

  it('workflow lint of an API tool object names the path inside its definition', async () => {
    // A task's generated tool named like another tool: found once every tool is loaded.
    const task = { type: 'expression', tool: { name: 'lookup' }, expression: '`1`' };
    const errors = await loadErrors([
      def(),
      {
        name: 'flow',
        service_id: 1,
        definition: def({ type: 'context', context: { task } }, 'flow'),
      },
    ]);
    expect(errors.find((i) => i.code === 'tool_name_collision')?.path).toBe(
      'tools[1].definition.context.task.tool.name',
    );
  });

  it('a definition with its own "tool" is never read as an API object, whatever else it has', async () => {
    // Only an object without `tool` is unwrapped: a stray `definition` field is unknown, not
    // a second tool that replaces the one written.
    const raw = { ...def(), definition: def({}, 'other') };
    const set = await loadTools([raw]);
    expect([...set.tools.keys()]).toEqual(['lookup']);
    expect(codes(set.warnings)).not.toContain('api_object');
  });

  it('defaults that are not an object (an SDK placeholder) apply nothing, with a warning', async () => {
    const warnings = await loadWarnings([def({ defaults: '<value>' })]);
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'defaults_ignored', path: 'tools[0].defaults' }),
    ]);
  });

  it('context.task that cannot run here (import, steps without steps) is dropped with a warning', async () => {
    const set = await loadTools([
      def({ context: { task: { type: 'import', version: 'v1alpha', file: '<value>' } } }, 'a'),
      def({ context: { task: { type: 'steps', start: 'auto' } } }, 'b'),
      def({ context: { task: [] } }, 'c'),
    ]);
    expect(codes(set.warnings)).toEqual(['task_not_supported', 'task_empty']);
    expect(set.tools.get('a')?.tasks).toEqual([]);
    expect(set.tools.get('b')?.tasks).toEqual([]);
  });

  it("never modifies the caller's object", async () => {
    const raw = {
      name: 'x',
      definition: def({
        tool: { function: { name: 'lookup', parameters: { a: { type: 'string' } } } },
        result: null,
      }),
    };
    const before = structuredClone(raw);
    await loadTools([raw]);
    expect(raw).toEqual(before);
  });

  it('strict mode turns the normalisation warnings into errors', async () => {
    await expect(
      loadTools([def({ tool: { function: { name: 'lookup' } } })], { strict: true }),
    ).rejects.toThrow(/tool_type_missing|has no "type"/);
  });
});
