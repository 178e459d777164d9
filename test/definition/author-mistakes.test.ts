/**
 * A hurried tool author's mistakes that used to load without a word (docs/reliability.md,
 * "A tool author's mistakes"): each is now a warning or an error naming its path.
 */
import { describe, expect, it } from 'vitest';
import { def, loadWarnings } from './helpers.js';

const lines = (issues: readonly { path: string; message: string; code: string }[], code: string) =>
  issues.filter((i) => i.code === code).map((i) => `${i.path}: ${i.message}`);

describe("a tool author's misspelt fields are named", () => {
  it('a misspelt field of a static parameter or a save rule is a warning with its path', async () => {
    const warnings = await loadWarnings([
      def({
        static_parameters: [{ name: 'units', defualt: 'metric' }],
        options: { save: [{ from: 'id', to: 'appt', form: 'x' }] },
      }),
      def({ staticParameters: [{ name: 'zone', descripton: 'z' }] }, 'other'),
    ]);
    expect(lines(warnings, 'unknown_field')).toEqual([
      'tools[0].static_parameters[0].defualt: is not a field of a static parameter (did you mean `default`?); ignored',
      'tools[0].options.save[0].form: is not a field of a save rule (did you mean `from`?); ignored',
      'tools[1].staticParameters[0].descripton: is not a field of a static parameter (did you mean `description`?); ignored',
    ]);
  });

  it('a misspelt "transform" key says the object is set as a literal', async () => {
    const warnings = await loadWarnings([
      def({ defaults: { city: { transfrom: { value: 'x' } }, zone: { note: 1 } } }),
    ]);
    expect(lines(warnings, 'literal_transform')).toEqual([
      'tools[0].defaults["city"].transfrom: is not "transform", so this object is set as a literal value (did you mean `transform`?)',
    ]);
  });

  it('a misspelt verb or transform field names the one meant', async () => {
    const warnings = await loadWarnings([
      def({ defaults: { city: { transform: { acton: 'override', value: 'x' } } } }),
    ]);
    expect(lines(warnings, 'unknown_field')[0]).toContain(
      '"acton" is ignored (did you mean `action`?)',
    );
    await expect(
      (async () => {
        const { loadTools } = await import('../../src/definition/load.js');
        await loadTools([def({ defaults: { city: '@overide x' } })]);
      })(),
    ).rejects.toThrow('unknown verb "@overide" (did you mean `@override`?)');
  });
});

describe('a value of the wrong JSON type says it once', () => {
  it('was "Invalid input: expected array, received string, got …"', async () => {
    const { loadErrors } = await import('./helpers.js');
    const issues = await loadErrors([
      def({ options: { bridge_phrases: { 'en-US': 'One moment' } } }),
      null,
    ]);
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'tools[0].options.bridge_phrases["en-US"]: expected a list, got "One moment"',
      'tools[1]: expected an object, got null',
    ]);
  });
});

describe('one mistake, one error', () => {
  it('an empty endpoint URL is one bad_url error, alone and beside another mistake', async () => {
    const { loadErrors } = await import('./helpers.js');
    const endpoint = (url: string) => ({
      type: 'endpoint',
      endpoint: { url, method: 'post', argument_location: 'body' },
    });
    const alone = await loadErrors([def({ ...endpoint(''), result: undefined })]);
    expect(alone.map((i) => `${i.code} ${i.path}: ${i.message}`)).toEqual([
      'bad_url tools[0].endpoint.url: must not be empty: expected an absolute http(s) URL',
    ]);
    const beside = await loadErrors([def({ ...endpoint(' '), result: undefined, timeout: 'x' })]);
    expect(beside.map((i) => `${i.code} ${i.path}`)).toEqual([
      expect.stringMatching(/^schema tools\[0\]/),
      'bad_url tools[0].endpoint.url',
    ]);
  });
});

describe('a tools list written as something else', () => {
  it('names `tools` as the place, and an object keyed by tool name as such', async () => {
    const { loadErrors } = await import('./helpers.js');
    const said = async (value: unknown) =>
      (await loadErrors(value)).map((i) => `${i.path}: ${i.message}`);
    expect(await said({ tools: { book: def({}, 'book'), cancel: def({}, 'cancel') } })).toEqual([
      'tools: expected a list of tool definitions, got an object whose keys look like tool names ("book", "cancel"): write "tools": [ {…}, … ], each definition naming itself in tool.function.name',
    ]);
    expect(await said({ tools: { a: 1 } })).toEqual([
      'tools: expected a list of tool definitions, got an object',
    ]);
    expect(await said({ tools: 'book.json' })).toEqual([
      'tools: expected a list of tool definitions, got "book.json"',
    ]);
    expect(await said({ toolz: [] })).toEqual([
      ': expected a list of tool definitions, { "tools": [...] }, or one definition',
    ]);
  });
});

describe('a wrong value inside a definition field of several forms', () => {
  it('is named at its own path (a list of phrases holding a number)', async () => {
    const { loadErrors } = await import('./helpers.js');
    const issues = await loadErrors([
      def({ options: { speech: { before: { phrases: { en: ['One moment.', 5] } } } } }),
    ]);
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'tools[0].options.speech.before.phrases.en[1]: expected a string, got 5',
    ]);
  });
});
