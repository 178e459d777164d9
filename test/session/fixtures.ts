// Tool sets for session tests, loaded with the real loader from inline definitions.
import { loadTools } from '../../src/definition/load.js';
import type { ToolSet } from '../../src/definition/types.js';

export function fn(
  name: string,
  properties: Record<string, unknown> = {},
  required: string[] = [],
  description?: string,
) {
  return {
    type: 'function',
    function: {
      name,
      ...(description === undefined ? {} : { description }),
      parameters: { type: 'object', properties, required, additionalProperties: false },
    },
  };
}

export async function clinicTools(): Promise<ToolSet> {
  return loadTools([
    {
      type: 'action',
      tool: fn(
        'book',
        { city: { type: 'string', enum: ['Bronx', 'Queens'] }, name: { type: 'string' } },
        ['city'],
      ),
      defaults: { hospital: '{vars.hospital}' },
      static_parameters: [{ name: 'units', type: 'string', default: 'metric' }],
    },
    { type: 'action', tool: fn('slow_action', {}), result: { done: true } },
    { type: 'action', tool: fn('hangup', {}), result: { status: 'ended' } },
    { type: 'action', tool: fn('to_billing', {}) },
    {
      type: 'context',
      tool: fn('set_language', { language: { type: 'string' }, say: { type: 'string' } }),
    },
    { type: 'log', tool: fn('note', { text: { type: 'string' } }, ['text']) },
    {
      type: 'action',
      tool: fn('strict_tpl', {}),
      defaults: { who: '{vars.missing_var}' },
    },
    {
      type: 'endpoint',
      tool: fn('get_weather', { city: { type: 'string' } }),
      endpoint: { url: 'http://127.0.0.1:9/weather', method: 'get', argument_location: 'query' },
    },
    {
      type: 'endpoint',
      tool: fn('post_order', { item: { type: 'string' } }),
      endpoint: { url: 'http://127.0.0.1:9/orders', method: 'post', argument_location: 'body' },
    },
  ]);
}
