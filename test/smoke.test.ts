import { describe, expect, it } from 'vitest';
import { DefinitionError, ToolError } from '../src/index.js';

describe('errors', () => {
  it('DefinitionError lists each error with file and path', () => {
    const err = new DefinitionError([
      {
        code: 'schema',
        severity: 'error',
        path: 'tools[0].endpoint.method',
        message: 'bad',
        file: 'a.json',
      },
      { code: 'w', severity: 'warning', path: 'tools[1]', message: 'just a warning' },
    ]);
    expect(err.message).toContain('a.json: tools[0].endpoint.method: bad');
    expect(err.message).not.toContain('just a warning');
  });
  it('ToolError serialises its code for the model', () => {
    expect(new ToolError('timeout', 'too slow').toJSON()).toEqual({
      error: { code: 'timeout', message: 'too slow' },
    });
  });
});
