import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { def, loadErrors } from './helpers.js';

describe('loadTools: sources', () => {
  it('accepts a list and { tools: [...] } alike', async () => {
    const a = await loadTools([def()]);
    const b = await loadTools({ tools: [def()] });
    expect([...a.tools.keys()]).toEqual(['lookup']);
    expect([...b.tools.keys()]).toEqual(['lookup']);
  });

  it('reads JSON and YAML files and names the file in errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-load-'));
    const json = join(dir, 'tools.json');
    const yaml = join(dir, 'tools.yaml');
    await writeFile(json, JSON.stringify([def()]));
    await writeFile(
      yaml,
      'tools:\n  - type: action\n    tool: { type: function, function: { name: y } }\n    result: 1\n',
    );
    expect((await loadTools(json)).tools.has('lookup')).toBe(true);
    expect((await loadTools(yaml)).tools.has('y')).toBe(true);

    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify([
        def({ endpoint: { url: 'https://x.test/a', method: 'patch' }, type: 'endpoint' }),
      ]),
    );
    const error = await loadTools(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message).toContain(
      `${bad}: tools[0].endpoint.method: expected one of get|post|put|delete, got "patch"`,
    );
  });

  it('reports syntax errors with the file (and line for YAML)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-load-'));
    const json = join(dir, 'broken.json');
    const yaml = join(dir, 'broken.yaml');
    await writeFile(json, '[{"a":1,}]');
    await writeFile(yaml, 'tools:\n  - a: [1\n');
    await expect(loadTools(json)).rejects.toThrow(/broken\.json: invalid JSON/);
    // JSON.parse names a character offset; a file's reader needs the line and column.
    const lines = join(dir, 'lines.json');
    await writeFile(
      lines,
      '[\n  { "type": "action",\n    "tool": { "type": "function", }\n  }\n]\n',
    );
    await expect(loadTools(lines)).rejects.toThrow(
      /lines\.json: invalid JSON at line 3, column 35: Expected double-quoted property name$/m,
    );
    const short = join(dir, 'short.json');
    await writeFile(short, '[\n  { "type": "action"\n');
    await expect(loadTools(short)).rejects.toThrow(
      /short\.json: invalid JSON at line 3, column 1: .*$/m,
    );
    // An unexpected token: V8 names no offset, only the text around it (newlines and all).
    const token = join(dir, 'token.json');
    await writeFile(token, '{\n  "tools": [],\n  "x": NaN\n}\n');
    await expect(loadTools(token)).rejects.toThrow(
      /token\.json: invalid JSON at line 3, column 8: Unexpected token 'N'$/m,
    );
    await expect(loadTools(yaml)).rejects.toThrow(/broken\.yaml: invalid YAML at line \d/);
    await expect(loadTools(join(dir, 'missing.json'))).rejects.toThrow(/cannot read file/);
    // A tab in the indentation: the place once, and no dangling colon.
    const tab = join(dir, 'tab.yaml');
    await writeFile(tab, 'tools:\n  - type: action\n    tool:\n\t  type: function\n');
    await expect(loadTools(tab)).rejects.toThrow(
      /tab\.yaml: invalid YAML at line 4, column 1: Tabs are not allowed as indentation$/m,
    );
  });

  it('rejects a top level that is not a list of tools', async () => {
    const issues = await loadErrors({ colour: 'blue' });
    expect(issues[0]?.message).toBe(
      'expected a list of tool definitions, { "tools": [...] }, or one definition',
    );
  });

  it("reads one definition on its own, and Syllable's list response { items }, as tools files", async () => {
    expect([...(await loadTools(def())).tools.keys()]).toEqual(['lookup']);
    expect([...(await loadTools({ items: [def()] })).tools.keys()]).toEqual(['lookup']);
    const issues = await loadErrors({ tool: 1 });
    expect(issues[0]?.path).toBe('tools[0].tool');
  });

  it("never writes defaults back into the caller's object", async () => {
    const raw = def({ defaults: { city: 'Paris', 'tags.x': 1 } });
    const before = structuredClone(raw);
    await loadTools([raw]);
    expect(raw).toEqual(before);
  });

  it('resolves the internal type with defaults filled', async () => {
    const set = await loadTools([
      def({
        type: undefined,
        endpoint: { url: 'https://api.test/v1/x', method: 'GET' },
        result: undefined,
      }),
      def({ type: undefined, result: 'ok' }, 'act'),
      def(
        { type: undefined, endpoint: { url: 'https://api.test/v1/x', method: 'Post' } },
        'post_it',
      ),
    ]);
    const endpoint = set.tools.get('lookup')!;
    expect(endpoint.type).toBe('endpoint');
    expect(endpoint.endpoint).toEqual({
      url: 'https://api.test/v1/x',
      method: 'get',
      argumentLocation: 'query',
      timeoutSecs: 20,
      pathParams: [],
    });
    expect(endpoint.options).toEqual({
      propagateToolResult: false,
      save: [],
      bridgePhrases: {},
      speech: { afterSpeech: false, maxWaitMs: 10_000, interruptible: true, onError: new Map() },
      background: false,
      sideEffects: 'none',
    });
    expect(set.tools.get('act')!.type).toBe('action');
    expect(set.tools.get('post_it')!.endpoint?.argumentLocation).toBe('body');
    expect(set.tools.get('post_it')!.endpoint?.method).toBe('post');
  });

  it('accepts camelCase spellings and refuses both at once', async () => {
    const set = await loadTools([
      def({
        type: 'endpoint',
        endpoint: { url: 'https://api.test/v1/{id}', method: 'get', argumentLocation: 'path' },
        staticParameters: [{ name: 'units', default: 'metric' }],
        options: { propagateToolResult: true, bridgePhrases: { '*': ['One moment'] } },
      }),
    ]);
    const tool = set.tools.get('lookup')!;
    expect(tool.endpoint?.argumentLocation).toBe('path');
    expect(tool.staticParameters.map((p) => p.name)).toEqual(['units']);
    expect(tool.options.propagateToolResult).toBe(true);
    expect(tool.options.bridgePhrases).toEqual({ '*': ['One moment'] });

    const issues = await loadErrors([def({ static_parameters: [], staticParameters: [] })]);
    expect(issues[0]).toMatchObject({ code: 'both_spellings', path: 'tools[0].staticParameters' });
  });

  it('looks tools up in a Map: names like constructor and __proto__ are ordinary', async () => {
    const set = await loadTools([
      def({}, 'constructor'),
      def({}, 'toString'),
      def({}, 'hasOwnProperty'),
    ]);
    expect([...set.tools.keys()]).toEqual(['constructor', 'toString', 'hasOwnProperty']);
    expect(set.tools.get('constructor')?.name).toBe('constructor');
    expect(set.tools.has('valueOf')).toBe(false);
  });

  it('hides static parameters from the model schema and the validator', async () => {
    const raw = def({
      tool: {
        type: 'function',
        function: {
          name: 'w',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' }, units: { type: 'string' } },
            required: ['city', 'units'],
          },
        },
      },
      static_parameters: [{ name: 'units', default: 'metric' }],
    });
    const tool = (await loadTools([raw])).tools.get('w')!;
    expect(tool.tool.function.parameters).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
    expect(tool.validator.validate({ city: 'Paris' })).toEqual({
      ok: true,
      value: { city: 'Paris' },
    });
  });

  it('validates arguments: paths, required, enums with allowed values', async () => {
    const tool = (
      await loadTools([
        def({
          tool: {
            type: 'function',
            function: {
              name: 'v',
              parameters: {
                type: 'object',
                properties: { unit: { enum: ['celsius', 'fahrenheit'] }, n: { type: 'integer' } },
                required: ['unit'],
                additionalProperties: false,
              },
            },
          },
        }),
      ])
    ).tools.get('v')!;
    const result = tool.validator.validate({ n: '5', extra: 1 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failures).toEqual(
      expect.arrayContaining([
        { path: '/unit', message: 'is required' },
        { path: '/extra', message: 'is not an allowed property' },
        { path: '/n', message: 'must be integer' },
      ]),
    );
    const enumResult = tool.validator.validate({ unit: 'kelvin' });
    expect(enumResult).toEqual({
      ok: false,
      failures: [{ path: '/unit', message: 'must be one of "celsius", "fahrenheit"' }],
    });
  });
});

describe('loadTools: a fixture given by mistake', () => {
  it('says it is a fixture and points to switchboard test', async () => {
    await expect(loadTools({ name: 'x', tools: 'a.json', turns: [] })).rejects.toThrow(
      /conversation fixture.*switchboard test/,
    );
  });
});
