import { describe, expect, it } from 'vitest';
import { toChatTools, toRealtimeTools, toResponsesTools } from '../../src/definition/export.js';
import { loadTools } from '../../src/definition/load.js';
import { def } from './helpers.js';

describe('export to model formats', () => {
  const raw = def({
    tool: {
      type: 'function',
      function: {
        name: 'weather',
        description: 'Weather near {{vars.city}}',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, units: { type: 'string' } },
          required: ['city'],
        },
      },
    },
    static_parameters: [{ name: 'units', default: 'metric' }],
  });
  const expectedParams = {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
  };

  it('Chat Completions: static parameters hidden, description rendered', async () => {
    const set = await loadTools([raw]);
    expect(toChatTools(set, { vars: { city: 'Lyon' } })).toEqual([
      {
        type: 'function',
        function: { name: 'weather', description: 'Weather near Lyon', parameters: expectedParams },
      },
    ]);
  });

  it('Responses API function tools', async () => {
    const set = await loadTools([raw]);
    expect(toResponsesTools(set, { vars: { city: 'Lyon' } })).toEqual([
      {
        type: 'function',
        name: 'weather',
        description: 'Weather near Lyon',
        parameters: expectedParams,
        strict: false,
      },
    ]);
  });

  it('Realtime API session tools', async () => {
    const set = await loadTools([raw]);
    expect(toRealtimeTools(set.tools.values())).toEqual([
      {
        type: 'function',
        name: 'weather',
        description: 'Weather near ',
        parameters: expectedParams,
      },
    ]);
  });

  it('mustache in descriptions does not HTML-escape', async () => {
    const set = await loadTools([raw]);
    expect(toChatTools(set, { vars: { city: 'A & B <c>' } })[0]?.function.description).toBe(
      'Weather near A & B <c>',
    );
  });
});
