import { describe, expect, it } from 'vitest';
import { createAgentServer, type AgentServerOptions } from '../../src/entries/serve.js';
import { DefinitionError, loadTools } from '../../src/index.js';
import { ScriptModel } from './helpers.js';

// Options as a JavaScript host (or a config file) hands them over: no compiler checked them.
type Loose = Record<string, unknown>;

const tools = await loadTools([]);
const make = (patch: Loose): AgentServerOptions =>
  ({ tools, model: new ScriptModel(), ...patch }) as unknown as AgentServerOptions;

function refusal(patch: Loose): unknown {
  try {
    createAgentServer(make(patch));
  } catch (error) {
    return error;
  }
  throw new Error(`expected ${JSON.stringify(Object.keys(patch))} to be refused`);
}

describe('createAgentServer checks its options when it is created', () => {
  it.each<[string, Loose, string]>([
    [
      'a string body cap',
      { maxBodyBytes: '100' },
      'createAgentServer: maxBodyBytes: expected an integer of at least 1, got a string',
    ],
    [
      'a string timeout (was "got 3")',
      { headersTimeoutMs: '3' },
      'createAgentServer: headersTimeoutMs: expected an integer from 1 to 2147483647, got a string',
    ],
    [
      'an onError that is not a function',
      { onError: 'log' },
      'createAgentServer: onError: expected a function, got a string',
    ],
  ])('its own option: %s is a RangeError', (_name, patch, message) => {
    const error = refusal(patch);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toBe(message);
  });

  it.each<[string, Loose, string]>([
    [
      'a tool set still a Promise',
      { tools: loadTools([]) },
      'tools: expected a ToolSet, got a Promise (missing `await`?): `await` the loadTools(...) call',
    ],
    [
      'no model',
      { model: undefined },
      'model: is required: a Model such as openaiModel({ model }) or a ScriptedModel',
    ],
    [
      'a model name for a model',
      { model: 'gpt-4o' },
      'model: expected a Model (e.g. openaiModel({ model })), got a string',
    ],
    [
      'a string round count',
      { maxToolRounds: '3' },
      'maxToolRounds: expected an integer of at least 1, got a string',
    ],
  ])(
    'a session option: %s is a DefinitionError at creation, not a 500 per request',
    (_n, patch, issue) => {
      const error = refusal(patch);
      expect(error).toBeInstanceOf(DefinitionError);
      expect((error as DefinitionError).issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
        issue,
      ]);
    },
  );

  it('every wrong own option at once; an unknown key is a warning naming the nearest one', async () => {
    expect((refusal({ maxBodyBytes: 0, maxConnections: 1.5 }) as Error).message).toBe(
      'createAgentServer: maxBodyBytes: expected an integer of at least 1, got 0; maxConnections: expected an integer of at least 1, got 1.5',
    );
    const warnings: string[] = [];
    const server = createAgentServer(
      make({
        maxBodyByte: 10,
        onWarning: (w: { path: string; message: string }) =>
          warnings.push(`${w.path}: ${w.message}`),
      }),
    );
    expect(warnings).toEqual([
      'maxBodyByte: is not a known option (did you mean `maxBodyBytes`?); it is ignored',
    ]);
    await server.close();
  });

  it('correct options still make a server that answers', async () => {
    const server = createAgentServer(make({ maxBodyBytes: 1024, onError: () => undefined }));
    const { port } = await server.listen();
    const res = await fetch(`http://127.0.0.1:${port}/run_agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"prompt":"hi"}',
    });
    expect(res.status).toBe(200);
    await server.close();
  });
});
