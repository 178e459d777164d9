import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { clinicTools } from './fixtures.js';

describe('closeWith', () => {
  it('closes each resource once, in order, after the session; a failure rejects after all were tried', async () => {
    const closed: string[] = [];
    const session = createSession({
      tools: await clinicTools(),
      model: new ScriptedModel([]),
      closeWith: [
        { close: () => void closed.push('a') },
        {
          close: async () => {
            closed.push('b');
            throw new Error('b failed');
          },
        },
        { close: async () => void closed.push('c') },
      ],
    });
    await expect(session.close()).rejects.toThrow('b failed');
    expect(closed).toEqual(['a', 'b', 'c']);
    await session.close();
    expect(closed).toEqual(['a', 'b', 'c']);
  });
});
