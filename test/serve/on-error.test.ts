// `onError` hears each failure that is not the client's fault, and only those: an engine fault
// (simulated here: runAgent throwing a plain Error) is a 500 `internal` that says nothing of the
// error to the client, and the error itself goes to `onError`; a client's mistake (4xx) does not.
import { afterEach, expect, it, vi } from 'vitest';
import { type AgentServer } from '../../src/entries/serve.js';
import { loadTools } from '../../src/index.js';
import { fn } from '../session/fixtures.js';
import { ScriptModel, post, startServer } from './helpers.js';

vi.mock('../../src/agent-format/run-agent.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/agent-format/run-agent.js')>();
  return {
    ...real,
    runAgent: (prompt: string, options: Parameters<typeof real.runAgent>[1]) =>
      prompt === 'crash'
        ? Promise.reject(new Error('secret engine detail'))
        : real.runAgent(prompt, options),
  };
});

const tools = await loadTools([{ type: 'log', tool: fn('note', {}) }]);
let running: AgentServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

it('an engine fault is a 500 that hides the error, which goes to onError; client mistakes do not', async () => {
  const errors: unknown[] = [];
  const started = await startServer({
    tools,
    model: new ScriptModel(),
    onError: (error) => errors.push(error),
  });
  running = started.agent;
  const crashed = await post(started.url, { prompt: 'crash' });
  expect(crashed).toEqual({
    status: 500,
    json: { error: { code: 'internal', message: 'the run failed; see the server log' } },
  });
  expect(errors).toHaveLength(1);
  expect((errors[0] as Error).message).toBe('secret engine detail');
  expect((await post(started.url, { prompt: 3 })).status).toBe(400);
  expect((await post(started.url, { prompt: 'fine' })).status).toBe(200);
  expect(errors).toHaveLength(1);
});
