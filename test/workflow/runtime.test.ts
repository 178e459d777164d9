import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { createSession, restoreSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';
import { NO_WORKFLOWS, writableWorkflows } from '../../src/session/workflow/state.js';

const DIR = 'fixtures/syllable/workflows';
const load = (name: string) => loadTools(join(DIR, `${name}.tools.json`));

function toolNames(model: ScriptedModel, call: number): string[] {
  return (model.calls[call]?.tools ?? []).map((t) => t.function.name);
}

function container(task: unknown, name = 'flow'): Record<string, unknown> {
  return {
    type: 'context',
    context: { task },
    tool: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
  };
}

describe('steps workflows at run time', () => {
  it('hello world: step 1 delivered at the first input, submit completes and removes the tool', async () => {
    const tools = await load('ex01-hello-world');
    const model = new ScriptedModel(
      [
        { text: 'Hello! This is a simple one-step workflow.' },
        { tool_calls: [{ name: 'complete_greeting' }] },
        { text: 'Done.' },
        { text: 'Anything else?' },
      ],
      { record: true },
    );
    const session = createSession({ tools, model });
    const t1 = await session.run('hi');
    expect(toolNames(model, 0)).toEqual(['complete_greeting']);
    // The synthetic submit call delivering step 1, and the system context.
    const history = model.calls[0]!.messages;
    const synthetic = history.find((m) => m.role === 'tool');
    expect(JSON.parse(String(synthetic?.content))).toMatchObject({
      status: 'started',
      workflow: 'hello-world',
      step: 'GREET',
      goal: 'Greet the user',
      instructions: [
        "Say: 'Hello! This is a simple one-step workflow.'",
        'Then call the complete_greeting tool to finish.',
      ],
    });
    expect(
      history.some((m) => m.role === 'system' && String(m.content).includes('current step GREET')),
    ).toBe(true);
    expect(t1.state.workflows?.['hello-world']).toMatchObject({ status: 'active', step: 'GREET' });
    expect(model.calls[0]!.tools[0]!.function.description).toBe('Greet the user');

    const t2 = await session.run('ok');
    expect(t2.traces[0]).toMatchObject({
      tool: 'complete_greeting',
      isError: false,
      output: { status: 'completed' },
    });
    expect(t2.events.filter((e) => e.type === 'workflow')).toEqual([
      { type: 'workflow', workflow: 'hello-world', status: 'completed', step: 'GREET' },
    ]);
    const t3 = await session.run('bye');
    expect(toolNames(model, 3)).toEqual([]);
    expect(t3.state.workflows?.['hello-world']?.status).toBe('completed');
  });

  it('collect input: a missing required input is refused and the step stays', async () => {
    const tools = await load('ex02-collect-input');
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'submit_user_info', args: {} }] },
        { tool_calls: [{ name: 'submit_user_info', args: { user_name: 'Ada' } }] },
        { text: 'Thanks Ada' },
      ],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('I am Ada');
    expect(r.traces.map((t) => [t.isError, t.errorCode])).toEqual([
      [true, 'invalid_arguments'],
      [false, undefined],
    ]);
    expect(String((r.traces[0]!.output as { error: { message: string } }).error.message)).toMatch(
      /step COLLECT_NAME is still current.*user_name/,
    );
    const params = model.calls[0]!.tools[0]!.function.parameters;
    expect(params).toEqual({
      type: 'object',
      properties: { user_name: { type: 'string', description: "The user's name" } },
      required: ['user_name'],
      additionalProperties: false,
    });
    expect(r.state.workflows?.['collect-input']?.status).toBe('completed');
  });

  it('lifecycle: on.enter says and sets, on.submit saves and counts, templates see saved values', async () => {
    const tools = await load('ex04-lifecycle');
    const model = new ScriptedModel(
      [
        { text: 'What is your name?' },
        { tool_calls: [{ name: 'submit_contact_info', args: { user_name: 'Ada' } }] },
        { text: 'And your email?' },
      ],
      { record: true },
    );
    const session = createSession({ tools, model });
    const t1 = await session.run('hello');
    expect(
      t1.events.filter((e) => e.type === 'say').map((e) => e.type === 'say' && e.text),
    ).toEqual(["Welcome! Let's collect your contact information. Step 1 of 3."]);
    expect(t1.state.workflows?.['contact-form-with-lifecycle']?.local).toEqual({
      steps_completed: 0,
    });
    const t2 = await session.run('Ada');
    const says = t2.events.filter((e) => e.type === 'say');
    expect(says.map((e) => e.type === 'say' && e.text)).toEqual(['Thanks, Ada! Step 2 of 3.']);
    expect(t2.state.vars).toMatchObject({ user_name: 'Ada' });
    expect(t2.state.workflows?.['contact-form-with-lifecycle']).toMatchObject({
      step: 'COLLECT_EMAIL',
      local: { steps_completed: 1 },
      inputs: {},
    });
    expect(t2.traces[0]!.output).toMatchObject({
      step: 'COLLECT_EMAIL',
      say: ['Thanks, Ada! Step 2 of 3.'],
    });
  });

  it('conditional: JMESPath over saved values routes to the matching branch', async () => {
    for (const [time, end] of [
      ['afternoon', 'SCHEDULE_CALL'],
      ['night', 'SEND_EMAIL'],
    ] as const) {
      const tools = await load('ex05-conditional');
      const model = new ScriptedModel(
        [
          {
            tool_calls: [
              { name: 'submit_contact_info', args: { user_name: 'Ada' } },
              { name: 'submit_contact_info', args: { user_email: 'ada@example.com' } },
              { name: 'submit_contact_info', args: { contact_time: time } },
            ],
          },
          { text: 'ok' },
        ],
        { record: true },
      );
      const r = await createSession({ tools, model }).run('go');
      expect(r.state.workflows?.['contact-form-with-branching']?.step).toBe(end);
      expect(r.traces[2]!.output).toMatchObject({ step: end });
    }
  });

  it('retry: CEL validation loops back, counts attempts and exits after three', async () => {
    const tools = await load('ex06-retry');
    const bad = { name: 'submit_contact_info', args: { user_email: 'nope' } };
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'submit_contact_info', args: { user_name: 'Ada' } }, bad, bad] },
        { tool_calls: [bad] },
        { text: 'sorry' },
      ],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('go');
    const key = 'contact-form-with-retry';
    expect(r.traces.map((t) => (t.output as { status?: string; step?: string }).step)).toEqual([
      'COLLECT_EMAIL',
      'COLLECT_EMAIL',
      'COLLECT_EMAIL',
      'ERROR_TOO_MANY_ATTEMPTS',
    ]);
    expect(r.traces[1]!.output).toMatchObject({ status: 'retry' });
    expect(r.state.workflows?.[key]).toMatchObject({
      local: { email_attempts: 3, email_is_valid: false },
    });
    expect(r.events.filter((e) => e.type === 'say').map((e) => e.type === 'say' && e.text)).toEqual(
      [
        "Welcome! Let's collect your contact information.",
        "That email address doesn't look right. Please include an @ and a domain.",
        "That email address doesn't look right. Please include an @ and a domain.",
        "Sorry, I couldn't validate that email address after several tries.",
      ],
    );
  });

  it('a loop-back clears the step inputs: the next submission starts empty', async () => {
    const tools = await load('ex06-retry');
    const model = new ScriptedModel([
      {
        tool_calls: [
          { name: 'submit_contact_info', args: { user_name: 'Ada' } },
          { name: 'submit_contact_info', args: { user_email: 'nope' } },
        ],
      },
      { text: 'Your email again?' },
    ]);
    const r = await createSession({ tools, model }).run('go');
    expect(r.traces[1]!.output).toMatchObject({ status: 'retry' });
    const state = r.state.workflows?.['contact-form-with-retry'] as {
      step: string;
      inputs: unknown;
    };
    expect(state.step).toBe('COLLECT_EMAIL');
    expect(state.inputs).toEqual({});
  });

  it('a session restored mid-workflow continues at the same step', async () => {
    const tools = await load('ex03-multi-step');
    const first = new ScriptedModel(
      [
        { tool_calls: [{ name: 'submit_contact_info', args: { user_name: 'Ada' } }] },
        { text: 'Your email?' },
      ],
      { record: true },
    );
    const s1 = createSession({ tools, model: first });
    await s1.run('Ada here');
    const saved = JSON.parse(JSON.stringify(s1.toJSON())) as ReturnType<typeof s1.toJSON>;
    expect(saved.workflows?.['contact-form']).toMatchObject({
      step: 'COLLECT_EMAIL',
      status: 'active',
    });

    const second = new ScriptedModel(
      [
        { tool_calls: [{ name: 'submit_contact_info', args: { user_email: 'ada@example.com' } }] },
        { text: 'When?' },
      ],
      { record: true },
    );
    const s2 = restoreSession(saved, { tools, model: second });
    const r = await s2.run('ada@example.com');
    expect(second.calls[0]!.tools[0]!.function.description).toBe(
      "Collect the user's email address",
    );
    expect(r.events.some((e) => e.type === 'say')).toBe(false);
    expect(r.state.workflows?.['contact-form']?.step).toBe('COLLECT_TIME');
    expect(r.state.vars).toMatchObject({ user_name: 'Ada', user_email: 'ada@example.com' });
    // Exactly one synthetic activation in the whole history.
    expect(
      r.state.history.filter((m) => m.role === 'tool' && m.content.includes('"started"')).length,
    ).toBe(1);
  });

  it('refuses malformed stored workflow state', async () => {
    const tools = await load('ex03-multi-step');
    const model = new ScriptedModel([], { record: true });
    const state = createSession({ tools, model }).toJSON();
    expect(() =>
      restoreSession({ ...state, workflows: { x: { status: 'nope' } } } as never, { tools, model }),
    ).toThrow(/invalid session state:\n.*workflows\.x\.status/);
  });

  it('two workflows in one agent do not share inputs, locals or steps', async () => {
    const mk = (id: string, submit: string, fnName: string) =>
      container(
        {
          type: 'steps',
          id,
          tool: { name: submit },
          steps: [
            {
              id: 'ASK',
              goal: `ask ${id}`,
              inputs: [{ name: 'answer', type: 'string' }],
              on: {
                enter: [{ action: 'set', name: 'local.count', value: 0 }],
                submit: [{ action: 'inc', name: 'local.count' }],
              },
              next: [{ id: 'DONE' }],
            },
            { id: 'DONE', goal: 'done' },
          ],
        },
        fnName,
      );
    const tools = await loadTools([mk('a', 'submit_a', 'flow_a'), mk('b', 'submit_b', 'flow_b')]);
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'submit_a', args: { answer: 'x' } }] }, { text: 'ok' }],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('go');
    expect(toolNames(model, 0)).toEqual(['submit_a', 'submit_b']);
    expect(r.state.workflows).toEqual({
      a: { status: 'active', step: 'DONE', inputs: {}, local: { count: 1 } },
      b: { status: 'active', step: 'ASK', inputs: {}, local: { count: 0 } },
    });
  });

  it('integration: call actions run other tools through the normal pipeline; tools.allow limits tools', async () => {
    const tools = await load('ex07-integration');
    const requests: string[] = [];
    const { MockAgent } = await import('undici');
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://api.validation.test')
      .intercept({ path: (p) => p.startsWith('/v1/email-domain'), method: 'GET' })
      .reply(
        200,
        (opts) => {
          requests.push(String(opts.path));
          return { valid: true };
        },
        { headers: { 'content-type': 'application/json' } },
      );
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'submit_contact_info', args: { user_name: 'Ada' } }] },
        { tool_calls: [{ name: 'submit_contact_info', args: { user_email: 'ada@example.com' } }] },
        { text: 'When?' },
      ],
      { record: true },
    );
    const r = await createSession({ tools, model, dispatcher: agent }).run('go');
    expect(toolNames(model, 0)).toEqual(['submit_contact_info']);
    expect(toolNames(model, 1)).toEqual(['validate_email_domain', 'submit_contact_info']);
    expect(requests).toEqual(['/v1/email-domain?email=ada%40example.com']);
    expect(r.traces.map((t) => t.tool)).toEqual([
      'submit_contact_info',
      'validate_email_domain',
      'submit_contact_info',
    ]);
    expect(r.state.vars).toMatchObject({ email_domain_valid: true, user_email: 'ada@example.com' });
    const kinds = r.events.map((e) => e.type);
    expect(kinds.indexOf('http-request')).toBeLessThan(kinds.lastIndexOf('tool-result'));
    await agent.close();
  });

  it('start: manual exposes the submit tool; the first call activates and delivers step 1', async () => {
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'm',
        start: 'manual',
        tool: { name: 'begin_intake', description: 'Start the intake' },
        steps: [
          {
            id: 'ONE',
            goal: 'First',
            instructions: ['Do one'],
            on: { enter: [{ action: 'say', text: 'Starting.' }] },
            next: ['TWO'],
          },
          { id: 'TWO', goal: 'Second' },
        ],
      }),
    ]);
    const model = new ScriptedModel([{ tool_calls: [{ name: 'begin_intake' }] }, { text: 'ok' }], {
      record: true,
    });
    const r = await createSession({ tools, model }).run('go');
    expect(model.calls[0]!.tools[0]!.function).toMatchObject({
      name: 'begin_intake',
      description: 'Start the intake',
    });
    expect(r.traces[0]!.output).toMatchObject({
      status: 'started',
      step: 'ONE',
      instructions: ['Do one'],
      say: ['Starting.'],
    });
    expect(model.calls[1]!.tools[0]!.function.description).toBe('First');
  });

  it('conditional instructions, requires, go_to_step and CEL over inputs', async () => {
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'c',
        tool: { name: 'submit' },
        steps: [
          {
            id: 'A',
            goal: 'a',
            tools: { allowGoToStep: true },
            instructions: [
              'Always.',
              { if: 'vars.vip', text: 'Greet {{vars.name}} as a VIP.' },
              { if: { type: 'cel', expression: 'has(local.x)' }, text: 'Never.' },
            ],
            inputs: [{ name: 'n', type: 'integer', required: false }],
            next: [
              { id: 'B', requires: ['n'], if: { type: 'cel', expression: 'inputs.n + 1 > 10' } },
              { id: 'C', requires: ['n'] },
              'A',
            ],
          },
          { id: 'B', goal: 'b' },
          { id: 'C', goal: 'c' },
        ],
      }),
    ]);
    const model = new ScriptedModel(
      [
        { tool_calls: [{ name: 'submit', args: {} }] },
        { tool_calls: [{ name: 'submit', args: { n: 3 } }] },
        { text: 'ok' },
      ],
      { record: true },
    );
    const r = await createSession({
      tools,
      model,
      vars: { 'vars.vip': true, 'vars.name': 'Ada' },
    }).run('go');
    const started = model.calls[0]!.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(started?.content)).instructions).toEqual([
      'Always.',
      'Greet Ada as a VIP.',
    ]);
    expect(r.traces.map((t) => (t.output as { step?: string; status?: string }).status)).toEqual([
      'retry',
      'ok',
    ]);
    expect(r.state.workflows?.['c']?.step).toBe('C');
    expect(model.calls[0]!.tools[0]!.function.parameters).toMatchObject({
      properties: { go_to_step: { enum: ['A', 'B', 'C'] } },
    });
    const jump = new ScriptedModel(
      [{ tool_calls: [{ name: 'submit', args: { go_to_step: 'B' } }] }, { text: 'ok' }],
      { record: true },
    );
    const j = await createSession({ tools, model: jump }).run('go');
    expect(j.state.workflows?.['c']?.step).toBe('B');
  });

  it('hostile data: an expression over large model input is stopped by its budget', async () => {
    const tools = await loadTools([
      container({
        type: 'steps',
        id: 'h',
        tool: { name: 'submit' },
        steps: [
          {
            id: 'A',
            goal: 'a',
            inputs: [{ name: 'xs', type: 'array' }],
            next: [
              {
                id: 'B',
                if: { type: 'cel', expression: 'inputs.xs.all(a, inputs.xs.exists(b, b == a))' },
              },
              { id: 'B', if: 'length(inputs.xs[?@ > `0`]) > `0`' },
            ],
          },
          { id: 'B', goal: 'b' },
        ],
      }),
    ]);
    const xs = Array.from({ length: 2000 }, (_, i) => i);
    const model = new ScriptedModel(
      [{ tool_calls: [{ name: 'submit', args: { xs } }] }, { text: 'ok' }],
      { record: true },
    );
    const r = await createSession({ tools, model }).run('go');
    // 2,000 × 2,000 iterations are over the step budget: a typed error, the step stays current.
    expect(r.traces[0]).toMatchObject({ isError: true, errorCode: 'expression_budget' });
    expect(r.state.workflows?.['h']).toMatchObject({ step: 'A', inputs: {} });
  });
});

describe('expression and event tasks', () => {
  it('an expression task computes over its inputs; an event task acts on the first input', async () => {
    const tools = await loadTools([
      container(
        {
          type: 'expression',
          id: 'bmi',
          tool: { name: 'compute_total', description: 'Add two numbers' },
          inputs: [
            { name: 'a', type: 'integer' },
            { name: 'b', type: 'integer' },
          ],
          expression: { type: 'cel', expression: 'inputs.a + inputs.b' },
          on: {
            submit: [
              {
                action: 'set',
                name: 'last_total',
                valueFrom: { type: 'cel', expression: 'inputs.a + inputs.b' },
              },
            ],
          },
        },
        'calc',
      ),
      container(
        {
          type: 'event',
          id: 'greeter',
          on: {
            start: [
              { action: 'say', text: 'This call may be recorded.' },
              { action: 'set', name: 'greeted', value: true },
            ],
          },
        },
        'greeting',
      ),
    ]);
    const model = new ScriptedModel(
      [
        {
          tool_calls: [
            { name: 'compute_total', args: { a: 2, b: 40 } },
            { name: 'compute_total', args: { a: 'x' } },
          ],
        },
        { text: '42' },
        { text: 'again' },
      ],
      { record: true },
    );
    const session = createSession({ tools, model });
    const r = await session.run('add');
    expect(toolNames(model, 0)).toEqual(['compute_total']);
    expect(r.traces.map((t) => [t.output, t.errorCode])).toEqual([
      [42, undefined],
      [expect.anything(), 'invalid_arguments'],
    ]);
    expect(r.events.filter((e) => e.type === 'say').map((e) => e.type === 'say' && e.text)).toEqual(
      ['This call may be recorded.'],
    );
    expect(r.state.vars).toMatchObject({ greeted: true, last_total: 42 });
    const again = await session.run('more');
    expect(again.events.some((e) => e.type === 'say')).toBe(false);
  });
});

describe('task state before any task starts', () => {
  it('is one shared empty map that refuses writes; the first write gives the session its own', () => {
    const a = { workflows: NO_WORKFLOWS };
    const b = { workflows: NO_WORKFLOWS };
    expect(() => NO_WORKFLOWS.set('k', { status: 'active', inputs: {}, local: {} })).toThrow(
      /writableWorkflows/,
    );
    writableWorkflows(a).set('k', { status: 'active', inputs: {}, local: {} });
    expect(a.workflows).not.toBe(NO_WORKFLOWS);
    expect(a.workflows.size).toBe(1);
    expect(b.workflows).toBe(NO_WORKFLOWS);
    expect(NO_WORKFLOWS.size).toBe(0);
  });
});
