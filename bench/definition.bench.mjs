// Loading benchmark: time to load (validate, compile rules and schemas, lint) 1,000 definitions.
import { loadTools } from '../dist/index.js';

function definition(i) {
  return {
    type: 'endpoint',
    tool: {
      type: 'function',
      function: {
        name: `tool_${i}`,
        description: `Tool number ${i}`,
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            id: { type: 'string' },
            count: { type: 'integer', minimum: 0 },
            kind: { type: 'string', enum: ['a', 'b', `c${i}`] },
          },
          required: ['city'],
        },
      },
    },
    endpoint: { url: `https://api.test/v1/items/{id}`, method: 'get', argument_location: 'path' },
    defaults: {
      city: {
        transform: {
          action: 'override',
          when: { key: 'city', value: 'Bronx' },
          value: 'The Bronx',
        },
      },
      'tags.hospital': '{vars.hospital}',
      'tags.city': '{city}',
      greeting: '@override Hello, {city}!',
      count: 1,
    },
    static_parameters: [{ name: 'units', default: 'metric' }],
  };
}

const defs = Array.from({ length: 1000 }, (_, i) => definition(i));
await loadTools(defs.slice(0, 20)); // warm up
const runs = [];
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  const set = await loadTools(defs);
  runs.push(performance.now() - t0);
  if (set.tools.size !== 1000) throw new Error('expected 1000 tools');
}
runs.sort((a, b) => a - b);
console.log(
  `load 1,000 definitions: median ${runs[2].toFixed(1)} ms (min ${runs[0].toFixed(1)}, max ${runs[4].toFixed(1)}) over 5 runs`,
);
