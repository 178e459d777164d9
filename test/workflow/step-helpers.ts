/**
 * Helpers of the workflow tests written against seeded faults (step-transitions, step-actions).
 */
import { loadTools } from '../../src/definition/load.js';
import { createSession } from '../../src/session/create-session.js';
import { ScriptedModel } from '../../src/testing.js';

export function container(task: unknown, name = 'flow'): Record<string, unknown> {
  return {
    type: 'context',
    context: { task },
    tool: { type: 'function', function: { name, parameters: { type: 'object', properties: {} } } },
  };
}

export type Call = { name: string; args?: Record<string, unknown> };

/** Runs one user turn in which the model makes `calls` (one round each), then answers. */
export async function turn(
  task: unknown,
  calls: readonly Call[],
  options: { vars?: Record<string, unknown>; id?: string } = {},
): Promise<{
  r: Awaited<ReturnType<ReturnType<typeof createSession>['run']>>;
  model: ScriptedModel;
}> {
  const tools = await loadTools([container(task)]);
  const model = new ScriptedModel([...calls.map((c) => ({ tool_calls: [c] })), { text: 'ok' }], {
    record: true,
  });
  const r = await createSession({ tools, model, ...options }).run('go');
  return { r, model };
}

/** A two-step form: RATE (one integer input) then DONE. */
export function rating(tools?: Record<string, unknown>): Record<string, unknown> {
  return {
    type: 'steps',
    id: 'survey',
    tool: { name: 'submit_rating' },
    steps: [
      {
        id: 'RATE',
        goal: 'Ask for a rating',
        inputs: [{ name: 'rating', type: 'integer' }],
        ...(tools === undefined ? {} : { tools }),
        next: ['DONE'],
      },
      { id: 'DONE', goal: 'Thank the user', tools: { call: true } },
    ],
  };
}
