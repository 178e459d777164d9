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

  it('a closeWith that is not a list of closables fails createSession, naming the entry', async () => {
    const tools = await clinicTools();
    expect(() =>
      createSession({ tools, model: new ScriptedModel([]), closeWith: [{}] as never }),
    ).toThrow('closeWith[0]: expected an object with a close() method');
    expect(() =>
      createSession({ tools, model: new ScriptedModel([]), closeWith: {} as never }),
    ).toThrow('closeWith: expected an array');
  });
});
