// createSymphony checks the shape of its options when it is called (a TypeError, as its other
// host mistakes), before anything runs.
import { describe, expect, it } from 'vitest';
import { createSymphony, loadSymphony, type SymphonyOptions } from '../../src/entries/symphony.js';
import { ScriptedModel } from '../../src/testing.js';

type Loose = Record<string, unknown>;

const config = await loadSymphony({
  source: { tools: [], agents: [{ name: 'writer', systemPrompt: 'Write.', tools: [] }] },
});
const model = new ScriptedModel([{ text: 'done' }]);
const make = (patch: Loose) => () =>
  createSymphony({ config, model, ...patch } as unknown as SymphonyOptions);

describe('createSymphony checks its options when called', () => {
  it.each<[string, Loose, string]>([
    [
      'a configuration still a Promise (was a TypeError reading `values`)',
      { config: loadSymphony({ source: { agents: [] } }) },
      'createSymphony: config: expected a loaded Symphony configuration, got a Promise (missing `await`?): `await` the loadSymphony(...) call',
    ],
    [
      "a configuration's content, not loaded",
      { config: { agents: [] } },
      "createSymphony: config: expected a loaded Symphony configuration, got an object: this is a configuration's content; pass it through `await loadSymphony(...)` first",
    ],
    ['no model', { model: undefined }, 'createSymphony: model: is required'],
    [
      'a model name for a model (was accepted; the first run failed)',
      { model: 'gpt-4o' },
      'createSymphony: model: expected a Model (e.g. openaiModel({ model })), got a string',
    ],
    [
      'an action that is not a function',
      { actions: { lookup: 'lookup' } },
      'createSymphony: actions.lookup: expected a function, got a string',
    ],
    [
      'a delegator map holding no function',
      { delegators: new Map([['pick', {}]]) },
      'createSymphony: delegators.pick: expected a function, got an object',
    ],
    [
      'a tracer without startSpan',
      { tracing: { tracer: {} } },
      'createSymphony: tracing.tracer: expected an OpenTelemetry Tracer: it has no startSpan() method',
    ],
  ])('%s', (_name, patch, message) => {
    expect(make(patch)).toThrow(new TypeError(message));
  });

  it('every wrong option in one error; an unknown key is a warning with the nearest name', async () => {
    expect(make({ model: 1, onWarning: 'log' })).toThrow(
      new TypeError(
        'createSymphony: model: expected a Model (e.g. openaiModel({ model })), got a number; onWarning: expected a function, got a string',
      ),
    );
    const warnings: string[] = [];
    const symphony = createSymphony({
      config,
      model,
      delegator: {},
      onWarning: (w) => warnings.push(`${w.code} ${w.path}: ${w.message}`),
    } as SymphonyOptions);
    expect(warnings).toEqual([
      'unknown_option delegator: is not a known option (did you mean `delegators`?); it is ignored',
    ]);
    expect((await symphony.runAgent({ agent: 'writer', task: 'go' })).result.response).toBe('done');
  });

  it('a model factory is a model choice', () => {
    expect(make({ model: () => model })).not.toThrow();
  });
});
