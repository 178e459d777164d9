/**
 * Issue 14, items 2 and 11: a schema `pattern` cannot freeze the process (linear-time engine,
 * unsupported syntax refused at load, long strings not matched), and hostile definitions — too
 * deep, too many key segments, too large a file, a YAML alias bomb — fail loading with a
 * definition error naming file and path, never a `RangeError`; a call whose arguments the
 * templates amplify beyond the cap is a tool error.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn, lastToolMessage } from './helpers.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-limits-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The error lines of a load that must fail (`file: path: message [code]`). */
async function loadErrors(source: unknown, options = {}): Promise<string[]> {
  let caught: unknown;
  try {
    await loadTools(source, options);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DefinitionError);
  return (caught as DefinitionError).issues
    .filter((i) => i.severity === 'error')
    .map((i) => `${i.file ?? ''}: ${i.path}: ${i.message} [${i.code}]`);
}

/** One call of `tool` with `args`, answered by the model; returns what the model read. */
async function callOnce(
  tools: Awaited<ReturnType<typeof loadTools>>,
  tool: string,
  args: unknown,
  limits = {},
) {
  const ran: unknown[] = [];
  const model = new ScriptedModel(
    [{ tool_calls: [{ name: tool, args: JSON.stringify(args) }] }, { text: 'done' }],
    { record: true },
  );
  const session = createSession({
    tools,
    model,
    limits,
    actions: { [tool]: (a) => (ran.push(a), 'ok') },
  });
  const result = await session.run('go');
  const message = lastToolMessage(model, 1);
  const answer = (message.startsWith('{') ? JSON.parse(message) : {}) as {
    error?: { code: string; message: string };
  };
  return { result, answer, ran };
}

describe('item 2: schema patterns run on a linear-time engine', () => {
  const HOSTILE = '^([a-zA-Z]+\\s?)*$';

  it('the catastrophic pattern against 28 letters and "!" is refused at once', async () => {
    const tools = await loadTools([
      { type: 'action', tool: fn('name', { who: { type: 'string', pattern: HOSTILE } }) },
    ]);
    const started = performance.now();
    const bad = await callOnce(tools, 'name', { who: `${'a'.repeat(28)}!` });
    const good = await callOnce(tools, 'name', { who: 'Ada Lovelace' });
    const elapsed = performance.now() - started;
    expect(bad.answer.error?.code).toBe('invalid_arguments');
    expect(bad.answer.error?.message).toContain('/who: must match pattern');
    expect(bad.ran).toEqual([]);
    expect(good.answer.error).toBeUndefined();
    expect(good.ran).toEqual([{ who: 'Ada Lovelace' }]);
    // A backtracking engine needs ~22 s here (and 2^28 more steps per extra letter).
    expect(elapsed).toBeLessThan(1000);
  }, 5000);

  it('patternProperties run on the same engine', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: fn('tags', {
          tags: { type: 'object', patternProperties: { [HOSTILE]: { type: 'string' } } },
        }),
      },
    ]);
    const key = `${'b'.repeat(40)}!`;
    const { answer, ran } = await callOnce(tools, 'tags', { tags: { [key]: 1, ok: 'x' } });
    // The hostile key does not match, so nothing constrains it; the call runs.
    expect(answer.error).toBeUndefined();
    expect(ran).toEqual([{ tags: { [key]: 1, ok: 'x' } }]);
  }, 5000);

  it('JavaScript semantics are kept where RE2 differs (\\s, \\S, ".", [^], [])', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: fn('t', {
          space: { type: 'string', pattern: '^\\s$' },
          nonspace: { type: 'string', pattern: '^[\\S]$' },
          bareNonspace: { type: 'string', pattern: '^\\S$' },
          dot: { type: 'string', pattern: '^.$' },
          any: { type: 'string', pattern: '^[^]$' },
          none: { type: 'string', pattern: '[]' },
        }),
      },
    ]);
    const cases: [string, string, boolean][] = [
      ['space', '\u00a0', true],
      ['space', '\u2028', true],
      ['space', 'x', false],
      ['nonspace', '\u00a0', false],
      ['nonspace', 'x', true],
      // Outside a class too: RE2's own \S would accept a no-break space.
      ['bareNonspace', '\u00a0', false],
      ['bareNonspace', '\u3000', false],
      ['bareNonspace', 'x', true],
      ['dot', '\r', false],
      ['dot', '\u2029', false],
      ['dot', '😀', true],
      ['any', '\n', true],
      ['none', 'x', false],
    ];
    for (const [name, value, ok] of cases) {
      const valid = tools.tools.get('t')!.validator.validate({ [name]: value }).ok;
      expect({ name, value, valid }).toEqual({ name, value, valid: ok });
      expect(valid).toBe(new RegExp(patternOf(name), 'u').test(value));
    }
    function patternOf(name: string): string {
      return {
        space: '^\\s$',
        nonspace: '^[\\S]$',
        bareNonspace: '^\\S$',
        dot: '^.$',
        any: '^[^]$',
        none: '[]',
      }[name]!;
    }
  });

  it('surrogate-pair escapes, named groups, "[" in a class and \\p{Script=…} mean what they mean in JavaScript', async () => {
    const patterns: Record<string, string> = {
      pair: '^\\uD83D\\uDE00$',
      named: '^(?<area>\\d{3})-\\d{4}$',
      bracket: '^[[:alpha:]+$',
      script: '^\\p{Script=Greek}+$',
    };
    const properties = Object.fromEntries(
      Object.entries(patterns).map(([name, pattern]) => [name, { type: 'string', pattern }]),
    );
    const tools = await loadTools([{ type: 'action', tool: fn('t', properties) }]);
    const cases: [string, string, boolean][] = [
      ['pair', '😀', true],
      ['pair', 'x', false],
      ['named', '555-1234', true],
      ['named', '5551234', false],
      // In JavaScript `[[:alpha:]` is the class of "[", ":", "a", "l", "p", "h"; RE2 would read a
      // POSIX class there.
      ['bracket', '[a:', true],
      ['bracket', 'b', false],
      ['script', 'αβγ', true],
      ['script', 'abc', false],
    ];
    for (const [name, value, ok] of cases) {
      const valid = tools.tools.get('t')!.validator.validate({ [name]: value }).ok;
      expect({ name, value, valid }).toEqual({ name, value, valid: ok });
      expect(valid).toBe(new RegExp(patterns[name]!, 'u').test(value));
    }
  });

  it.each([
    ['(?=.*\\d).{8,}', 'lookahead'],
    ['^(?!admin).*$', 'negative lookahead'],
    ['(?<=\\$)\\d+', 'lookbehind'],
    ['(?<!x)y', 'negative lookbehind'],
    ['(a)\\1', 'backreference'],
    ['(?<q>[\'"]).*\\k<q>', 'backreference'],
    ['^a{1001}$', 'repeat count over 1000'],
    ['^[^\\S]$', '\\S inside a negated class'],
  ])('%s is a load error naming the schema path (%s)', async (pattern, what) => {
    const errors = await loadErrors([
      { type: 'action', tool: fn('t', { zip: { type: 'string', pattern } }) },
    ]);
    expect(errors).toEqual([
      `: tools[0].tool.function.parameters.properties.zip.pattern: pattern uses syntax the linear-time engine cannot run (${what}) [unsupported_pattern]`,
    ]);
  });

  it('a pattern compiling to a program too large to match quickly is a load error', async () => {
    // 40 000 instructions: linear, but 40 s on 10 000 characters.
    const huge = Array.from({ length: 20 }, (_, i) => `[a-${'bcdefghijklmnopqrstu'[i]}]{1,1000}`);
    const errors = await loadErrors([
      {
        type: 'action',
        tool: fn('t', { s: { type: 'string', pattern: `(?:${huge.join('|')})y` } }),
      },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /properties\.s\.pattern: pattern is too large for the linear-time engine \(\d+ instructions; at most 1000\) \[unsupported_pattern\]$/,
    );
  });

  it('a patternProperties key, nested anywhere, is checked too', async () => {
    const errors = await loadErrors([
      {
        type: 'action',
        tool: fn('t', {
          a: {
            type: 'array',
            items: { type: 'object', patternProperties: { '^(?!x)': { type: 'string' } } },
          },
        }),
      },
    ]);
    expect(errors).toEqual([
      `: tools[0].tool.function.parameters.properties.a.items.patternProperties["^(?!x)"]: pattern uses syntax the linear-time engine cannot run (negative lookahead) [unsupported_pattern]`,
    ]);
  });

  it('a property name with a dot is one quoted segment of the path, not two', async () => {
    const errors = await loadErrors([
      { type: 'action', tool: fn('t', { 'user.zip': { type: 'string', pattern: '(?=1)' } }) },
    ]);
    expect(errors).toEqual([
      `: tools[0].tool.function.parameters.properties["user.zip"].pattern: pattern uses syntax the linear-time engine cannot run (lookahead) [unsupported_pattern]`,
    ]);
  });

  it('a pattern that is not a valid JavaScript regex stays a bad_schema error', async () => {
    const errors = await loadErrors([
      { type: 'action', tool: fn('t', { z: { type: 'string', pattern: '(' } }) },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/properties\.z\.pattern: invalid pattern: .*\[bad_schema\]$/);
  });

  it('data that merely looks like a pattern (enum, default, a property named pattern) loads', async () => {
    const tools = await loadTools([
      {
        type: 'action',
        tool: fn('t', {
          pattern: { type: 'string', enum: ['(?=x)'], default: '(a)\\1' },
        }),
      },
    ]);
    expect(tools.tools.get('t')!.validator.validate({ pattern: '(?=x)' }).ok).toBe(true);
  });

  it('a string longer than the pattern cap is refused without running the pattern', async () => {
    const tools = await loadTools([
      { type: 'action', tool: fn('t', { s: { type: 'string', pattern: '^a*$' } }) },
    ]);
    const validator = tools.tools.get('t')!.validator;
    expect(validator.validate({ s: 'a'.repeat(10_000) }).ok).toBe(true);
    const long = validator.validate({ s: 'a'.repeat(10_001) });
    expect(long).toEqual({
      ok: false,
      failures: [
        {
          path: '/s',
          message: 'is longer than 10000 characters, the most a pattern is checked on',
        },
      ],
    });
  });
});

describe('item 11: definition edge cases fail loading with a definition error', () => {
  function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
    let value = leaf;
    for (let i = 0; i < depth; i++) value = wrap(value);
    return value;
  }

  it('a 5,000-deep parameters schema is too_deep, not a RangeError', async () => {
    const deep = nested(5000, { type: 'string' }, (inner) => ({
      type: 'object',
      properties: { a: inner },
    }));
    const errors = await loadErrors([
      { type: 'action', tool: fn('t', { a: deep }) },
      { type: 'action', tool: fn('fine', { b: { type: 'string' } }) },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^: tools\[0\]\.tool\.function\.parameters(\.properties\.a)+\.properties: nested more than 64 levels deep \[too_deep\]$/,
    );
  });

  it('the nesting cap is exact: a definition 64 levels deep loads, 65 is too_deep', async () => {
    // The definition is level 1, `defaults` level 2, each list one more.
    const at = (levels: number): unknown[] => [
      {
        type: 'action',
        tool: fn('t', { a: {} }),
        defaults: { a: nested(levels - 2, 1, (inner) => [inner]) },
      },
    ];
    expect((await loadTools(at(64))).tools.has('t')).toBe(true);
    const errors = await loadErrors(at(65));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('nested more than 64 levels deep [too_deep]');
  });

  it('a 20,000-deep defaults value is too_deep, not a RangeError', async () => {
    const errors = await loadErrors([
      {
        type: 'action',
        tool: fn('t', { a: {} }),
        defaults: { a: nested(20_000, 1, (inner) => [inner]) },
      },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^: tools\[0\]\.defaults\.a(\[0\])+: nested more than 64 levels deep \[too_deep\]$/,
    );
  });

  it('a 20,000-deep YAML document is a definition error too', async () => {
    const file = join(dir, 'deep.yaml');
    await writeFile(file, `- ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    const errors = await loadErrors(file);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`${file}: `);
    expect(errors[0]).toMatch(
      /: invalid YAML at line 1, column \d+: nested too deeply .* \[syntax\]$/,
    );
    expect(errors[0]).not.toContain('call stack');
    const shallower = join(dir, 'deeper-than-64.yaml');
    await writeFile(shallower, `- type: action\n  result: ${'['.repeat(200)}${']'.repeat(200)}\n`);
    expect(await loadErrors(shallower)).toEqual([
      `${shallower}: tools[0].result${'[0]'.repeat(63)}: nested more than 64 levels deep [too_deep]`,
    ]);
  });

  it('a dotted key of 3,000 segments is a load error (the cap is 32)', async () => {
    const key = Array.from({ length: 3000 }, (_, i) => `k${i}`).join('.');
    const errors = await loadErrors([
      { type: 'action', tool: fn('t', { a: {} }), defaults: { [key]: 'x' } },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('has 3000 segments; at most 32 are allowed [invalid_key]');
    const at32 = Array.from({ length: 32 }, (_, i) => `k${i}`).join('.');
    const tools = await loadTools([
      { type: 'action', tool: fn('t', { a: {} }), defaults: { [at32]: 'x' } },
    ]);
    expect((await callOnce(tools, 't', {})).answer.error).toBeUndefined();
  });

  it('a template field path of 3,000 segments is a load error too', async () => {
    const field = Array.from({ length: 3000 }, (_, i) => `k${i}`).join('.');
    const errors = await loadErrors([
      { type: 'action', tool: fn('t', { a: {} }), defaults: { b: `{${field}}` } },
    ]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('at most 32');
  });

  it('a tools file over the size cap is refused before parsing; the cap is an option', async () => {
    const file = join(dir, 'big.json');
    const one = { type: 'action', tool: fn('t', { a: {} }), result: 'x'.repeat(200) };
    await writeFile(file, JSON.stringify([one]).padEnd(6 * 1024 * 1024, ' '));
    const errors = await loadErrors(file);
    expect(errors).toEqual([
      `${file}: : the file is larger than 5242880 bytes (maxFileBytes) [too_large]`,
    ]);
    const small = join(dir, 'small.json');
    await writeFile(small, JSON.stringify([one]));
    expect(await loadErrors(small, { maxFileBytes: 100 })).toEqual([
      `${small}: : the file is larger than 100 bytes (maxFileBytes) [too_large]`,
    ]);
    expect((await loadTools(small)).tools.has('t')).toBe(true);
  });

  it('a YAML alias bomb (a large anchor repeated 60 times) is refused without expanding it', async () => {
    const file = join(dir, 'bomb.yaml');
    const row = `    - ${'y'.repeat(70)}\n`;
    const anchor = `x-big: &big\n${row.repeat(Math.floor((4.5 * 1024 * 1024) / row.length))}`;
    const uses = Array.from({ length: 60 }, (_, i) => `      u${i}: *big`).join('\n');
    await writeFile(
      file,
      `${anchor}tools:\n  - type: action\n    tool: {type: function, function: {name: t}}\n    result:\n${uses}\n`,
    );
    const before = process.memoryUsage().rss;
    const errors = await loadErrors(file);
    expect(errors).toEqual([
      `${file}: : the definitions expand to more than 5242880 bytes with aliases resolved (maxFileBytes) [too_large]`,
    ]);
    // Memory, not time, shows the aliases were never expanded (60 × 4.5 MB would be 270 MB of
    // text): a time bound would fail on a loaded machine without telling anything more.
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  }, 20_000);

  it.each([
    ['a long string', `"${'y'.repeat(2000)}"`],
    ['an object with a long key', `{${'k'.repeat(2000)}: 1}`],
  ])('an alias of %s counts its full length at every use', async (_what, big) => {
    // 20 uses of 2 000 characters expand to 40 000 bytes, over a 20 000-byte cap; the file
    // itself is about 2 500 bytes. Each string and key counts with its length, not a constant.
    const file = join(dir, `few-big-${big.length}-${big[0] === '{' ? 'key' : 'string'}.yaml`);
    const uses = Array.from({ length: 20 }, (_, i) => `      u${i}: *big`).join('\n');
    await writeFile(
      file,
      `x-big: &big ${big}\ntools:\n  - type: action\n    tool: {type: function, function: {name: t}}\n    result:\n${uses}\n`,
    );
    expect(await loadErrors(file, { maxFileBytes: 20_000 })).toEqual([
      `${file}: : the definitions expand to more than 20000 bytes with aliases resolved (maxFileBytes) [too_large]`,
    ]);
    // Used 4 times (8 000 bytes) it is under the cap and loads.
    const few = join(dir, `few-${big[0] === '{' ? 'key' : 'string'}.yaml`);
    await writeFile(
      few,
      `x-big: &big ${big}\ntools:\n  - type: action\n    tool: {type: function, function: {name: t}}\n    result:\n${uses.split('\n').slice(0, 4).join('\n')}\n`,
    );
    expect((await loadTools(few, { maxFileBytes: 20_000 })).tools.has('t')).toBe(true);
  });

  it('a few anchors for a shared schema still load', async () => {
    const file = join(dir, 'anchors.yaml');
    await writeFile(
      file,
      [
        'x-city: &city {type: string, pattern: "^[A-Z][a-z]+$"}',
        'tools:',
        '  - type: action',
        '    tool: {type: function, function: {name: a, parameters: {type: object, properties: {from: *city, to: *city}}}}',
        '  - type: action',
        '    tool: {type: function, function: {name: b, parameters: {type: object, properties: {city: *city}}}}',
        '',
      ].join('\n'),
    );
    const tools = await loadTools(file);
    expect([...tools.tools.keys()]).toEqual(['a', 'b']);
  });

  it('a call whose final arguments the templates amplify past the cap is invalid_arguments', async () => {
    const defaults = Object.fromEntries(
      Array.from({ length: 160 }, (_, i) => [`copy${i}`, '{note}']),
    );
    const tools = await loadTools([
      { type: 'action', tool: fn('t', { note: { type: 'string' } }), defaults },
    ]);
    const { answer, ran } = await callOnce(tools, 't', { note: 'n'.repeat(250 * 1024) });
    expect(ran).toEqual([]);
    expect(answer.error?.code).toBe('invalid_arguments');
    expect(answer.error?.message).toContain('over 1048576 bytes');
    // Under the cap, the same tool runs; the cap is an option.
    expect((await callOnce(tools, 't', { note: 'short' })).ran).toHaveLength(1);
    const raised = await callOnce(
      tools,
      't',
      { note: 'n'.repeat(1024) },
      {
        maxFinalArgumentBytes: 64 * 1024,
      },
    );
    expect(raised.answer.error?.code).toBe('invalid_arguments');
  }, 20_000);
});
