// runAgent checks its own options (history, memory, signal) at the call; the rest are the
// session's, checked by createSession.
import { describe, expect, it } from 'vitest';
import { runAgent, type RunAgentOptions } from '../../src/agent-format/run-agent.js';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { ScriptedModel } from '../../src/testing.js';

type Loose = Record<string, unknown>;
const tools = await loadTools([]);

async function issuesOf(patch: Loose): Promise<string[]> {
  const model = new ScriptedModel([{ text: 'hi' }]);
  try {
    await runAgent('hello', { tools, model, ...patch } as unknown as RunAgentOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    expect((error as Error).message.split('\n')[0]).toBe('invalid runAgent options:');
    return (error as DefinitionError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error(`expected ${JSON.stringify(Object.keys(patch))} to be refused`);
}

describe('runAgent checks its own options', () => {
  it.each<[string, Loose, string]>([
    [
      'a history that is a number (was a TypeError: input.flatMap)',
      { chatHistory: 5 },
      'chatHistory: expected lines of text or an array of { role, content }, got a number',
    ],
    [
      'a memory that is a number (was dropped without a word)',
      { memory: 42 },
      'memory: expected text, an array of text or an object, got a number',
    ],
    [
      'a memory list holding a non-text item',
      { memory: ['a', 2] },
      'memory[1]: expected a string, got a number',
    ],
    [
      'a signal that is none (was "throwIfAborted is not a function")',
      { signal: 'stop' },
      'signal: expected an AbortSignal, got a string',
    ],
  ])('%s', async (_name, patch, issue) => {
    expect(await issuesOf(patch)).toEqual([issue]);
  });

  it('correct own options still run', async () => {
    const out = await runAgent('hello', {
      tools,
      model: new ScriptedModel([{ text: 'hi' }]),
      chat_history: 'user: before\\nassistant: ok',
      memory: { plan: 'gold' },
      signal: new AbortController().signal,
    });
    expect(out.content).toBe('hi');
  });
});
