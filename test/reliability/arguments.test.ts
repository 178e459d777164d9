/**
 * RELIABILITY.md "Model arguments": malformed JSON, size and depth limits, schema failures,
 * schemas compiled once at load, and the context tool's `language` and `say` — each through a
 * whole session with the real loader, so the answer the model gets back is what is checked.
 */
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import type { ToolSet } from '../../src/definition/types.js';
import { DefinitionError } from '../../src/errors.js';
import { createSession } from '../../src/session/create-session.js';
import { jsonErrorPosition } from '../../src/json-error-position.js';
import type { SessionEvent } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn, lastToolMessage } from './helpers.js';

const tools: ToolSet = await loadTools([
  {
    type: 'action',
    tool: fn(
      'book',
      {
        city: { type: 'string' },
        unit: { enum: ['celsius', 'fahrenheit'] },
        n: { type: 'integer' },
        when: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
      },
      ['city'],
    ),
  },
  {
    type: 'context',
    tool: fn('set_language', { language: {}, say: {}, message: {} }),
  },
]);

afterEach(() => {
  vi.restoreAllMocks();
});

/** A session whose first call sends `raw`, and whose model then retries with good arguments. */
async function retryAfter(raw: string) {
  const booked: unknown[] = [];
  const model = new ScriptedModel(
    [
      { tool_calls: [{ name: 'book', args: raw }] },
      { tool_calls: [{ name: 'book', args: { city: 'Bronx' } }] },
      { text: 'booked' },
    ],
    { record: true },
  );
  const session = createSession({
    tools,
    model,
    actions: { book: (args) => (booked.push(args), 'ok') },
  });
  const result = await session.run('book me');
  const answer = lastToolMessage(model, 1);
  // The message as the model reads it (the tool message is JSON: quotes inside are escaped).
  const message = (JSON.parse(answer) as { error?: { message?: string } }).error?.message ?? '';
  return { result, booked, answer, message, model };
}

describe('malformed JSON → invalid_arguments quoting where parsing failed; the model retries', () => {
  it.each([
    ['a trailing comma', '{"city":"Bronx",}', 16, ',}'],
    ['single quotes', "{'city':'Bronx'}", 1, "{'city'"],
    ['a fenced ```json block', '```json\n{"city":"Bronx"}\n```', 0, '```json'],
    ['NaN', '{"city":"Bronx","n":NaN}', 20, 'NaN'],
    ['a bare NaN', 'NaN', 0, 'NaN'],
    ['Infinity', '{"n":Infinity}', 5, 'Infinity'],
    ['a misspelt literal', '{"city":"Bronx","x":tru}', 23, 'tru}'],
    ['a cut-off object', '{"city":"Bronx"', 15, '"Bronx"'],
    ['an unquoted key', '{city:"Bronx"}', 1, '{city'],
  ])('%s', async (_label, raw, position, near) => {
    const { result, booked, answer } = await retryAfter(raw);
    expect(result.traces.map((t) => t.errorCode ?? 'ok')).toEqual(['invalid_arguments', 'ok']);
    const error = JSON.parse(answer) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('invalid_arguments');
    expect(error.error.message).toContain(`at position ${position}`);
    expect(error.error.message).toContain(JSON.stringify(near).slice(1, -1));
    // The session went on: the retry ran and the model had the last word.
    expect(booked).toEqual([{ city: 'Bronx' }]);
    expect(result.content).toBe('booked');
  });

  it('the fence gets a hint to send the bare object', async () => {
    const { answer } = await retryAfter('```json\n{"city":"Bronx"}\n```');
    expect(answer).toContain('without a code fence');
  });

  it('the located position agrees with V8 wherever V8 names one (mutated valid JSON)', () => {
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ v }));
    const edit = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom('delete', 'insert', 'replace'),
      ch: fc.constantFrom(...',:{}[]"\\ntfe-.0 \u0001\'N'.split('')),
    });
    fc.assert(
      fc.property(json, edit, (text, e) => {
        expect(jsonErrorPosition(text)).toBe(text.length);
        const at = e.at % (text.length + 1);
        const broken =
          e.kind === 'delete'
            ? text.slice(0, at) + text.slice(at + 1)
            : text.slice(0, at) + e.ch + text.slice(e.kind === 'insert' ? at : at + 1);
        let v8: number | undefined;
        try {
          JSON.parse(broken);
          return;
        } catch (err) {
          const m = /position (\d+)/.exec((err as Error).message);
          if (m?.[1] === undefined) return;
          v8 = Number(m[1]);
        }
        expect(jsonErrorPosition(broken)).toBe(v8);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('size and depth limits', () => {
  it('raw arguments over the size cap are rejected before parsing', async () => {
    const raw = `{"city":"${'x'.repeat(300 * 1024)}"}`;
    const parse = vi.spyOn(JSON, 'parse');
    const { result, answer } = await retryAfter(raw);
    expect(parse.mock.calls.some((c) => c[0] === raw)).toBe(false);
    expect(result.traces[0]?.errorCode).toBe('invalid_arguments');
    expect(answer).toContain('too large');
    expect(result.content).toBe('booked');
  });

  it.each([
    ['100 000 "["', '['.repeat(100_000) + ']'.repeat(100_000)],
    ['40 000 objects (inside the size cap)', '{"a":'.repeat(40_000) + '1' + '}'.repeat(40_000)],
    ['100 000 unclosed "["', '{"city":' + '['.repeat(100_000)],
  ])(
    'nesting of %s is rejected without a stack overflow, session continues',
    async (_label, raw) => {
      const { result, answer } = await retryAfter(raw);
      expect(result.traces[0]?.errorCode).toBe('invalid_arguments');
      expect(answer).toContain('nested too deeply');
      expect(result.content).toBe('booked');
    },
  );

  it('the depth cap (32) is exact, and brackets inside strings do not count', async () => {
    const nest = (depth: number): string =>
      `{"city":"[[[[{{{{","n":1,"x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    // Depth 32 passes the limit (then fails the closed schema on "x", which proves it was parsed).
    const ok = await retryAfter(nest(32));
    expect(ok.answer).toContain('/x');
    expect(ok.answer).not.toContain('nested too deeply');
    const deep = await retryAfter(nest(33));
    expect(deep.answer).toContain('nested too deeply');
  });
});

describe('schema failures name the path (and, for enums, the allowed values)', () => {
  it.each([
    ['wrong type', { city: 'Bronx', n: '5' }, ['/n', 'must be integer']],
    ['missing required property', { n: 5 }, ['/city', 'is required']],
    ['missing nested required property', { city: 'Bronx', when: {} }, ['/when/day', 'is required']],
    ['extra property', { city: 'Bronx', colour: 'red' }, ['/colour', 'not an allowed property']],
    [
      'enum near-miss',
      { city: 'Bronx', unit: 'Celsius' },
      ['/unit', 'must be one of "celsius", "fahrenheit"'],
    ],
    ['no coercion of "true" to a number', { city: 'Bronx', n: 'true' }, ['/n']],
  ])('%s', async (_label, args, expected) => {
    const { result, message, booked } = await retryAfter(JSON.stringify(args));
    expect(result.traces[0]?.errorCode).toBe('invalid_arguments');
    for (const text of expected) expect(message).toContain(text);
    expect(booked).toEqual([{ city: 'Bronx' }]);
  });

  it('every failure is reported at once (allErrors)', async () => {
    const { answer } = await retryAfter(JSON.stringify({ n: 1.5, unit: 'kelvin', colour: 'red' }));
    for (const path of ['/city', '/n', '/unit', '/colour']) expect(answer).toContain(path);
  });
});

describe('schemas compile once, at load', () => {
  it('no schema is compiled while a session runs', async () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const local = await loadTools([{ type: 'action', tool: fn('t', { a: { type: 'string' } }) }]);
    expect(compile).toHaveBeenCalled();
    compile.mockClear();
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            { name: 't', args: { a: 'x' } },
            { name: 't', args: { a: 1 } },
          ],
        },
        { text: 'ok' },
      ],
      { record: true },
    );
    const result = await createSession({ tools: local, model, actions: { t: () => 'ok' } }).run(
      'x',
    );
    expect(result.traces.map((t) => t.errorCode ?? 'ok')).toEqual(['ok', 'invalid_arguments']);
    expect(compile).not.toHaveBeenCalled();
  });

  async function loadError(parameters: Record<string, unknown>): Promise<string> {
    try {
      await loadTools([
        { type: 'action', tool: { type: 'function', function: { name: 't', parameters } } },
      ]);
    } catch (error) {
      expect(error).toBeInstanceOf(DefinitionError);
      // Each problem is reported at its own place under the schema (`….propertiez`).
      const issue = (error as DefinitionError).issues.find((i) =>
        i.path.startsWith('tools[0].tool.function.parameters'),
      );
      expect(issue?.severity).toBe('error');
      return issue === undefined ? '' : `${issue.path}: ${issue.message}`;
    }
    throw new Error('expected a load error');
  }

  it.each([
    [
      'a typo at the top',
      { type: 'object', propertiez: {} },
      /parameters\.propertiez: is not a JSON Schema keyword \(did you mean "properties"\?\)/,
    ],
    [
      'a typo deep inside',
      { type: 'object', properties: { a: { type: 'array', items: { maxLenght: 3 } } } },
      /properties\.a\.items\.maxLenght: is not a JSON Schema keyword \(did you mean "maxLength"\?\)/,
    ],
    [
      'a $data reference',
      { type: 'object', properties: { a: { maximum: { $data: '1/b' } }, b: {} } },
      /\$data references are not allowed/,
    ],
    [
      'an unknown type',
      { type: 'object', properties: { a: { type: 'str' } } },
      /properties\.a\.type: expected a JSON Schema type .*, got "str" \(did you mean "string"\?\)/,
    ],
  ])('%s fails loading', async (_label, schema, message) => {
    expect(await loadError(schema)).toMatch(message);
  });
});

describe('language: a well-formed BCP-47 tag, within `languages` when declared', () => {
  async function setLanguage(language: unknown, languages?: string[]) {
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'set_language', args: { language } }] }, { text: 'ok' }],
      { record: true },
    );
    const session = createSession({
      tools,
      model,
      language: 'en-US',
      ...(languages === undefined ? {} : { languages }),
    });
    const result = await session.run('switch');
    return { result, answer: lastToolMessage(model, 1), session };
  }

  it.each([
    'en_US',
    'english!',
    '',
    'e',
    'en-',
    '-en',
    'en--US',
    'en-US\u0000',
    'a'.repeat(9),
    42,
    true,
  ])('refuses %j with invalid_language and leaves the language as it was', async (language) => {
    const { result, answer } = await setLanguage(language);
    expect(result.traces[0]?.errorCode).toBe('invalid_language');
    expect(answer).toContain('not a valid language tag');
    expect(result.state.language).toBe('en-US');
    expect(result.events.some((e) => e.type === 'language')).toBe(false);
  });

  it('canonicalises a well-formed tag and emits the change', async () => {
    const { result } = await setLanguage('ES-us');
    expect(result.state.language).toBe('es-US');
    expect(result.events).toContainEqual({ type: 'language', from: 'en-US', to: 'es-US' });
  });

  it('a well-formed tag outside the declared languages is refused, naming the allowed ones', async () => {
    const { result, answer } = await setLanguage('fr-FR', ['en-US', 'es-US']);
    expect(result.traces[0]?.errorCode).toBe('invalid_language');
    expect(answer).toContain('en-US, es-US');
    expect(result.state.language).toBe('en-US');
    const ok = await setLanguage('es-us', ['en-US', 'es-US']);
    expect(ok.result.state.language).toBe('es-US');
  });
});

describe('say: length-capped and stripped of control characters', () => {
  async function say(text: unknown, key = 'say') {
    const events: SessionEvent[] = [];
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'set_language', args: { [key]: text } }] }, { text: 'ok' }],
      { record: true },
    );
    const result = await createSession({ tools, model, onEvent: (e) => events.push(e) }).run('x');
    const spoken = events.flatMap((e) => (e.type === 'say' ? [e.text] : []));
    return { result, spoken };
  }

  it('control characters go, line breaks become spaces (say and its alias message)', async () => {
    expect((await say('Hola\r\nmundo\u0000\u001b[31m!\u007f\u0085')).spoken).toEqual([
      'Hola mundo[31m!',
    ]);
    expect((await say('One\tmoment\u2028please', 'message')).spoken).toEqual(['One moment please']);
  });

  it('text over the cap is cut to 2000 characters, never mid surrogate pair', async () => {
    expect((await say('a'.repeat(10_000))).spoken).toEqual(['a'.repeat(2000)]);
    const [cut] = (await say(`${'a'.repeat(1999)}😀😀`)).spoken;
    expect(cut).toBe('a'.repeat(1999));
    expect(cut?.length).toBeLessThanOrEqual(2000);
  });

  it('text that is only control characters says nothing; a non-string is a tool error', async () => {
    expect((await say('\u0000\u0007\r\n')).spoken).toEqual([]);
    const bad = await say({ text: 'hi' });
    expect(bad.result.traces[0]?.errorCode).toBe('invalid_arguments');
    expect(bad.spoken).toEqual([]);
  });
});
