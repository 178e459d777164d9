import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { actionResult } from '../../src/handlers/action-result.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { fn } from './fixtures.js';

const tools = await loadTools([
  { type: 'action', tool: fn('to_billing', {}) },
  { type: 'action', tool: fn('to_nowhere', {}) },
  { type: 'log', tool: fn('note', { text: { type: 'string' } }) },
  { type: 'action', tool: fn('pay', {}), result: { paid: true } },
]);
const agents = {
  front: { prompt: 'Front desk for {{vars.name}}', tools: ['to_billing', 'to_nowhere', 'note'] },
  billing: { prompt: 'Billing for {{vars.name}}', tools: ['pay', 'note'] },
};

describe('agents and handoff', () => {
  it('switches agent, prompt and tools; vars and history carry over', async () => {
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'to_billing' }] },
        { tool_calls: [{ name: 'to_billing' }, { name: 'pay' }] },
        { text: 'Paid.' },
      ],
      { record: true },
    );
    const s = createSession({
      tools,
      model,
      agents,
      vars: { name: 'Ana' },
      actions: {
        to_billing: () => actionResult({ handoff: 'billing', vars: { topic: 'invoice' } }),
      },
    });
    const r = await s.run('I want to pay');
    expect(r.events).toContainEqual({ type: 'handoff', from: 'front', to: 'billing' });
    expect(model.calls[0]?.messages[0]).toEqual({ role: 'system', content: 'Front desk for Ana' });
    expect(model.calls[0]?.tools.map((t) => t.function.name)).toEqual([
      'to_billing',
      'to_nowhere',
      'note',
    ]);
    expect(model.calls[1]?.messages[0]).toEqual({ role: 'system', content: 'Billing for Ana' });
    expect(model.calls[1]?.tools.map((t) => t.function.name)).toEqual(['pay', 'note']);
    // History carried over (the user's message and the first round are still there).
    expect(model.calls[1]?.messages.slice(1).map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
    ]);
    // The old agent's tool is no longer available.
    expect(r.traces.map((t) => t.errorCode ?? 'ok')).toEqual(['ok', 'unknown_tool', 'ok']);
    expect(r.state.agent).toBe('billing');
    expect(r.state.vars).toMatchObject({ name: 'Ana', topic: 'invoice' });
    expect(s.toJSON().agent).toBe('billing');
  });

  it('refuses a handoff to an unknown agent as a tool error', async () => {
    const model = new ScriptedModel([{ tool_calls: [{ name: 'to_nowhere' }] }, { text: 'sorry' }], {
      record: true,
    });
    const s = createSession({
      tools,
      model,
      agents,
      actions: { to_nowhere: () => actionResult({ handoff: 'ghost' }) },
    });
    const r = await s.run('x');
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'not_available' });
    expect(r.state.agent).toBe('front');
    expect(r.events.some((e) => e.type === 'handoff')).toBe(false);
  });

  it('a handoff to the agent already active changes nothing and makes no handoff event', async () => {
    const model = new ScriptedModel([{ tool_calls: [{ name: 'to_billing' }] }, { text: 'ok' }]);
    const s = createSession({
      tools,
      model,
      agents,
      actions: { to_billing: () => actionResult({ handoff: 'front' }) },
    });
    const r = await s.run('x');
    expect(r.traces[0]?.isError).toBe(false);
    expect(r.state.agent).toBe('front');
    expect(r.events.some((e) => e.type === 'handoff')).toBe(false);
  });

  it('rejects unknown agents and agent tool names at creation', () => {
    const model = new ScriptedModel([], { record: true });
    expect(() => createSession({ tools, model, agents, agent: 'ghost' })).toThrow(
      /unknown agent "ghost"/,
    );
    expect(() =>
      createSession({ tools, model, agents: { a: { prompt: 'p', tools: ['missing'] } } }),
    ).toThrow(/unknown tool "missing"/);
  });
});

describe('handoff from a definition (options.handoff)', () => {
  it('a successful call of a tool with options.handoff switches the agent; a failed one does not', async () => {
    const defs = await loadTools([
      {
        type: 'log',
        tool: fn('escalate', { why: { type: 'string' } }),
        options: { handoff: 'nurse' },
      },
      { type: 'action', tool: fn('check', {}) },
    ]);
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'escalate', args: { why: 42 } }] },
        { tool_calls: [{ name: 'escalate', args: { why: 'pain' } }] },
        { text: 'Nurse here.' },
      ],
      { record: true },
    );
    const s = createSession({
      tools: defs,
      model,
      agents: { front: { prompt: 'front' }, nurse: { prompt: 'nurse' } },
    });
    const r = await s.run('It hurts');
    expect(r.traces.map((t) => t.errorCode ?? 'ok')).toEqual(['invalid_arguments', 'ok']);
    expect(r.events.filter((e) => e.type === 'handoff')).toEqual([
      { type: 'handoff', from: 'front', to: 'nurse', reason: 'escalate succeeded' },
    ]);
    expect(model.calls[2]?.messages[0]).toEqual({ role: 'system', content: 'nurse' });
  });
});
