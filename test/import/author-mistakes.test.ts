/** A vendor file's misspelt tool type (docs/reliability.md, "A tool author's mistakes"). */
import { describe, expect, it } from 'vitest';
import { importTools } from '../../src/import/import-tools.js';

describe('a misspelt Vapi tool type', () => {
  it('names the type meant, not "runs inside Vapi"', () => {
    const result = importTools(
      {
        tools: [
          { type: 'apiRequets', name: 'lookup', method: 'GET', url: 'https://a.test/x' },
          { type: 'apiRequest', name: 'book', method: 'GET', url: 'https://a.test/y' },
        ],
      },
      { from: 'vapi', file: 'vendor.json' },
    );
    expect(result.tools.map((t) => t.tool.function.name)).toEqual(['book']);
    expect(result.warnings.map((w) => `${w.path}: ${w.message}`)).toContain(
      'tools[0].type: "apiRequets" is not a Vapi tool type (did you mean `apiRequest`?); not imported',
    );
  });
});
