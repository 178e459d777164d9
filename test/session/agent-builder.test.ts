import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { createAgent } from '../../src/index.js';
import type { SessionEvent } from '../../src/session/types.js';
import { ScriptedModel } from '../../src/testing.js';

const tools = await loadTools([
  {
    type: 'action',
    tool: {
      type: 'function',
      function: {
        name: 'lookup',
        parameters: { type: 'object', properties: { id: { type: 'string' } } },
      },
    },
  },
]);

function messagesOf(err: unknown): string[] {
  if (!(err instanceof DefinitionError)) throw err;
  return err.issues.map((i) => `${i.path}: ${i.message}`);
}

describe('createAgent', () => {
  it('ask: runs the loop over createSession and resolves with the final text', async () => {
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'lookup', args: { id: 'a1' } }] },
        { text: 'Found Ada.' },
        { text: 'Bye.' },
      ],
      { record: true },
    );
    const seen: unknown[] = [];
    const agent = createAgent('support')
      .withSystem('You help {{vars.customer}}.')
      .withTools(tools)
      .withActions({ lookup: (args) => (seen.push(args), { name: 'Ada' }) })
      .withModel(model)
      .withOptions({ vars: { customer: 'Acme' } })
      .build();
    expect(await agent.ask('who is a1?')).toBe('Found Ada.');
    expect(seen).toEqual([{ id: 'a1' }]);
    expect(model.calls[0]!.messages[0]).toEqual({ role: 'system', content: 'You help Acme.' });
    expect(agent.session.toJSON().agent).toBe('support');
    // One agent, one conversation: the next turn sees the first.
    expect(await agent.ask('thanks')).toBe('Bye.');
    expect(model.calls[2]!.messages.filter((m) => m.role === 'user')).toHaveLength(2);
  });

  it('run: an async iterable of the turn events, with its result', async () => {
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'lookup', args: { id: 'a1' } }] },
      { text: ['Fo', 'und.'] },
    ]);
    const agent = createAgent('a')
      .withTools(tools)
      .withActions({ lookup: () => 'ok' })
      .withModel(model)
      .build();
    const stream = agent.run('go');
    const types: SessionEvent['type'][] = [];
    for await (const e of stream) types.push(e.type);
    expect(types).toEqual([
      'turn-start',
      'tool-call',
      'action',
      'tool-result',
      'text-delta',
      'text-delta',
      'turn-end',
    ]);
    expect((await stream.result).content).toBe('Found.');
  });

  it('maxTurns caps the rounds of tool calls (maxToolRounds)', async () => {
    const call = { tool_calls: [{ name: 'lookup', args: { id: 'x' } }] };
    const model = new ScriptedModel([call, call, call, { text: 'never' }]);
    const agent = createAgent('a')
      .withTools(tools)
      .withActions({ lookup: () => 'ok' })
      .withModel(model)
      .maxTurns(2)
      .build();
    const r = await agent.session.run('loop');
    expect(r.traces).toHaveLength(2);
    expect(r.events.find((e) => e.type === 'max-rounds')).toMatchObject({ rounds: 2 });
  });

  it('maxToolCallsPerTurn caps the calls of one answer (limits.maxCallsPerAnswer)', async () => {
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'lookup', args: { id: '1' } },
          { name: 'lookup', args: { id: '2' } },
        ],
      },
      { text: 'done' },
    ]);
    const ran: unknown[] = [];
    const agent = createAgent('a')
      .withTools(tools)
      .withActions({ lookup: (args) => (ran.push(args), 'ok') })
      .withModel(model)
      .maxToolCallsPerTurn(1)
      .build();
    const r = await agent.session.run('two');
    expect(ran).toEqual([{ id: '1' }]);
    expect(r.traces.map((t) => t.errorCode ?? 'ok')).toEqual(['ok', 'too_many_calls']);
  });

  it('maxToolCallsPerTurn keeps the other limits given with withOptions', async () => {
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'lookup', args: { id: 'x'.repeat(100) } }] },
      { text: 'done' },
    ]);
    const ran: unknown[] = [];
    const agent = createAgent('a')
      .withTools(tools)
      .withActions({ lookup: (args) => (ran.push(args), 'ok') })
      .withModel(model)
      .withOptions({ limits: { maxArgumentBytes: 64 } })
      .maxToolCallsPerTurn(1)
      .build();
    const r = await agent.session.run('long');
    expect(ran).toEqual([]);
    expect(r.traces[0]?.errorCode).toBe('invalid_arguments');
    expect(JSON.stringify(r.traces[0]?.output)).toContain('too large');
  });

  it('withOptions merges over earlier withOptions calls', async () => {
    const agent = createAgent('a')
      .withModel(new ScriptedModel([{ text: 'hola' }]))
      .withOptions({ vars: { caller: 'Ann' } })
      .withOptions({ language: 'es-US' })
      .build();
    expect(agent.session.vars).toEqual({ caller: 'Ann' });
    expect(agent.session.language).toBe('es-US');
  });

  it('throws every host mistake at build(), by name', () => {
    let err: unknown;
    try {
      createAgent('')
        .withSystem(42 as unknown as string)
        .maxTurns(0)
        .maxToolCallsPerTurn(1.5)
        .build();
    } catch (e) {
      err = e;
    }
    expect(messagesOf(err)).toEqual([
      'createAgent(name): the agent needs a name (a non-empty string)',
      'withModel: no model: call withModel(model)',
      'withSystem: expected the system prompt as a string',
      'maxTurns: expected an integer of at least 1, got 0',
      'maxToolCallsPerTurn: expected an integer of at least 1, got 1.5',
    ]);
    // As a JavaScript host may: a tool set not awaited, a count as text, options as a word.
    try {
      createAgent('a')
        .withModel(new ScriptedModel([]))
        .withTools(loadTools([]) as never)
        .maxTurns('3' as never)
        .withOptions('verbose' as never)
        .build();
    } catch (e) {
      err = e;
    }
    expect(messagesOf(err)).toEqual([
      'withTools: expected a ToolSet, got a Promise (missing `await`?): `await` the loadTools(...) call',
      'maxTurns: expected an integer of at least 1, got a string',
      'withOptions: expected an object of session options, got a string',
    ]);
    // The session's own checks run at build() too: an action for no tool.
    expect(() =>
      createAgent('a')
        .withTools(tools)
        .withModel(new ScriptedModel([]))
        .withActions({ lookups: () => 'x' })
        .build(),
    ).toThrow(/lookups/);
  });

  it('a builder is a value: each method returns a new one', async () => {
    const base = createAgent('a').withSystem('S');
    const one = base.withModel(new ScriptedModel([{ text: 'one' }])).build();
    const two = base.withModel(new ScriptedModel([{ text: 'two' }])).build();
    expect([await one.ask('x'), await two.ask('x')]).toEqual(['one', 'two']);
    expect(() => base.build()).toThrow(DefinitionError);
  });
});
