/** A Symphony author's misspelt field (docs/reliability.md, "A tool author's mistakes"). */
import { describe, expect, it } from 'vitest';
import { loadSymphony } from '../../src/entries/symphony.js';

describe('a misspelt Symphony field', () => {
  it('is an unknown_field warning naming the field meant', async () => {
    const config = await loadSymphony({
      source: {
        tools: [{ name: 'lookup', description: 'd', timout: 5000 }],
        agents: [{ name: 'support', systemPrompt: 'p', tools: ['lookup'], maxCals: 3 }],
      },
    });
    expect(
      config.warnings
        .filter((w) => w.code === 'unknown_field')
        .map((w) => `${w.path}: ${w.message}`),
    ).toEqual([
      'tools[0].timout: unknown field "timout" (did you mean `timeout`?) (ignored)',
      'agents[0].maxCals: unknown field "maxCals" (did you mean `maxCalls`?) (ignored)',
    ]);
  });
});
