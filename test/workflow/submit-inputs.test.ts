/**
 * Issue 43, item 1: a submission carries only the inputs its step declares, so a bare `save`
 * can never write a session variable the definition did not name.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { DefinitionError } from '../../src/errors.js';
import { createSession, restoreSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

function container(task: unknown, name = 'flow'): Record<string, unknown> {
  return {
    type: 'context',
    context: { task },
    tool: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
  };
}

/** A rating step saved bare (the retry tutorial's form), then a call that reads `account_id`. */
function ratingFlow(presubmit = false): Record<string, unknown>[] {
  const save = [{ action: 'save' }];
  return [
    container({
      type: 'steps',
      id: 'survey',
      tool: { name: 'submit_rating' },
      steps: [
        {
          id: 'RATE',
          goal: 'Ask for a rating',
          inputs: [{ name: 'rating', type: 'integer' }],
          on: presubmit ? { presubmit: save } : { submit: save },
          next: [{ id: 'DONE' }],
        },
        { id: 'DONE', goal: 'Thank the user' },
      ],
    }),
  ];
}

describe('workflow submissions take declared inputs only', () => {
  it('refuses an undeclared key whole: the host variable stays and nothing is merged', async () => {
    const tools = await loadTools(ratingFlow());
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            { name: 'submit_rating', args: { rating: 5, account_id: 'ACCT-OF-SOMEONE-ELSE' } },
          ],
        },
        { text: 'ok' },
      ],
      { record: true },
    );
    const r = await createSession({ tools, model, vars: { account_id: 'ACCT-1' } }).run('5 stars');
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'invalid_arguments' });
    const { error } = r.traces[0]!.output as { error: { message: string } };
    expect(error.message).toBe('step RATE does not take "account_id"; its inputs are: rating');
    expect(r.state.vars).toEqual({ account_id: 'ACCT-1' });
    expect(r.state.workflows?.['survey']).toMatchObject({ step: 'RATE', inputs: {} });
  });

  it('shows the model a closed schema (additionalProperties: false)', async () => {
    const tools = await loadTools(ratingFlow());
    const model = new ScriptedModel([{ text: 'hi' }], { record: true });
    await createSession({ tools, model }).run('hi');
    expect(model.calls[0]!.tools[0]!.function.parameters).toMatchObject({
      properties: { rating: { type: 'integer' } },
      additionalProperties: false,
    });
  });

  it('a bare save stores declared inputs only, whatever keys the stored inputs hold', async () => {
    const tools = await loadTools(ratingFlow(true));
    const model = new ScriptedModel([{ text: 'hi' }], { record: true });
    const s1 = createSession({ tools, model, vars: { account_id: 'ACCT-1' } });
    await s1.run('hi');
    const saved = s1.toJSON();
    // A stored state whose inputs hold a key the step never declared (written by an older version).
    const tampered = {
      ...saved,
      workflows: {
        survey: { status: 'active' as const, step: 'RATE', inputs: { account_id: 'X' }, local: {} },
      },
    };
    const next = new ScriptedModel(
      [{ tool_calls: [{ name: 'submit_rating', args: { rating: 4 } }] }, { text: 'thanks' }],
      { record: true },
    );
    const r = await restoreSession(tampered, { tools, model: next }).run('4');
    expect(r.state.vars).toEqual({ account_id: 'ACCT-1', rating: 4 });
  });

  it('an expression task refuses undeclared arguments before they become state', async () => {
    const tools = await loadTools([
      container(
        {
          type: 'expression',
          id: 'calc',
          tool: { name: 'add' },
          inputs: [{ name: 'a', type: 'integer' }],
          expression: { type: 'cel', expression: 'inputs.a + 1' },
          on: { submit: [{ action: 'save' }] },
        },
        'calc',
      ),
    ]);
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'add', args: { a: 1, account_id: 'X' } }] }, { text: 'ok' }],
      { record: true },
    );
    const r = await createSession({ tools, model, vars: { account_id: 'ACCT-1' } }).run('add');
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'invalid_arguments' });
    expect(JSON.stringify(r.traces[0]!.output)).toMatch(/account_id/);
    expect(r.state.vars).toEqual({ account_id: 'ACCT-1' });
    expect(model.calls[0]!.tools[0]!.function.parameters).toMatchObject({
      additionalProperties: false,
    });
  });

  it('refuses at load a set that writes an input the step does not declare', async () => {
    const flow = container({
      type: 'steps',
      steps: [
        {
          id: 'A',
          goal: 'a',
          inputs: [{ name: 'rating', type: 'integer' }],
          on: { presubmit: [{ action: 'set', name: 'inputs.account_id', value: 'x' }] },
        },
      ],
    });
    const error = await loadTools([flow]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DefinitionError);
    expect(String((error as Error).message)).toMatch(
      /steps\[0\]\.on\.presubmit\[0\]\.name.*input "account_id" is not declared/,
    );
  });

  it('the retry tutorial still saves what its steps declare', async () => {
    const tools = await loadTools(join('fixtures/syllable/workflows', 'ex06-retry.tools.json'));
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'submit_contact_info', args: { user_name: 'Ada' } }] },
        { text: 'email?' },
      ],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('Ada');
    expect(r.state.vars).toEqual({ user_name: 'Ada' });
  });
  it('refuses go_to_step on a step that does not allow it: the model cannot skip a step', async () => {
    const tools = await loadTools(ratingFlow());
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'submit_rating', args: { go_to_step: 'DONE' } }] },
      { text: 'ok' },
    ]);
    const r = await createSession({ tools, model }).run('skip it');
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'invalid_arguments' });
    expect(r.state.workflows?.['survey']).toMatchObject({ step: 'RATE' });
  });
});

describe('a call naming no tool while a workflow is active', () => {
  it('lists the submit tool among the available tools, and not once the workflow completes', async () => {
    const tools = await loadTools(ratingFlow());
    const model = new ScriptedModel([
      { tool_calls: [{ name: 'submit_ratin', args: { rating: 5 } }] },
      { tool_calls: [{ name: 'submit_rating', args: { rating: 5 } }] },
      { tool_calls: [{ name: 'submit_rating', args: {} }] },
      { tool_calls: [{ name: 'submit_ratin', args: {} }] },
      { text: 'Thanks.' },
    ]);
    const r = await createSession({ tools, model }).run('5 stars');
    const unknown = r.traces.filter((t) => t.errorCode === 'unknown_tool');
    // The model was shown submit_rating: an error saying "(none)" would send it elsewhere.
    expect(unknown[0]?.output).toMatchObject({
      error: { message: 'no tool named "submit_ratin"; available tools: submit_rating' },
    });
    expect(r.traces[1]).toMatchObject({ tool: 'submit_rating', isError: false });
    // DONE has no inputs and no next: submitting it completes the workflow, removing its tool.
    expect(r.traces[2]).toMatchObject({ tool: 'submit_rating', isError: false });
    expect(unknown[1]?.output).toMatchObject({
      error: { message: 'no tool named "submit_ratin"; available tools: (none)' },
    });
  });
});
