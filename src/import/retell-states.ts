/**
 * A multi-state Retell LLM (`states`, `edges`, `starting_state`) → one step workflow
 * (docs/workflows.md): each state is a step whose instructions are the state prompt and its
 * edges, whose `tools.allow` is the general tools plus the state's own, and from which the model
 * moves with the submit tool's `go_to_step`. What does not carry over is a warning naming it.
 */
import { isPlainObject } from '../own-data.js';
import type { ToolWarnings } from './conversion-context.js';
import type { ToolDefinitionJson } from './types.js';
import { mustacheLiteral, toMustache, type VariableDialect } from './variables.js';

/** The generated definition's function name and its submit tool's name. */
export const STATES_TOOL = 'retell_states';
export const SUBMIT_TOOL = 'change_state';

const STATE_FIELDS = new Set(['name', 'state_prompt', 'edges', 'tools']);
const EDGE_FIELDS = new Set(['destination_state_name', 'description', 'parameters']);

interface State {
  readonly index: number;
  readonly name: string;
  readonly raw: Record<string, unknown>;
}

/**
 * The workflow of an LLM's states, or undefined when it has none. `stateTools(i)` names the tools
 * imported from `states[i].tools`; `general` those from `general_tools`.
 */
export function statesWorkflow(
  llm: Record<string, unknown>,
  w: ToolWarnings,
  dialect: VariableDialect,
  general: readonly string[],
  stateTools: (index: number) => readonly string[],
): ToolDefinitionJson | undefined {
  if (!Array.isArray(llm['states']) || llm['states'].length === 0) return undefined;
  const states: State[] = [];
  llm['states'].forEach((raw, index) => {
    if (isPlainObject(raw) && typeof raw['name'] === 'string' && raw['name'] !== '')
      states.push({ index, name: raw['name'], raw });
    else w.warn(['states', index], 'a state without a name cannot be entered; not imported');
  });
  if (states.length === 0) return undefined;
  const names = new Set(states.map((s) => s.name));
  const start = llm['starting_state'];
  const first = states.find((s) => s.name === start) ?? states[0]!;
  if (start !== first.name)
    w.warn(
      ['starting_state'],
      `${typeof start === 'string' ? `"${start}" names no state` : 'no starting state'}; the workflow starts in "${first.name}"`,
    );
  w.warn(
    ['states'],
    `imported as the step workflow of tool "${STATES_TOOL}": one step per state, entered at the first user input; the model moves with ${SUBMIT_TOOL}'s go_to_step, which may name any state, not only those the edges lead to (the edges are in each step's instructions)`,
  );
  const ordered = [first, ...states.filter((s) => s !== first)];
  const steps = ordered.map((s) =>
    step(s, w, dialect, names, [...general, ...stateTools(s.index)]),
  );
  return {
    type: 'context',
    tool: {
      type: 'function',
      function: {
        name: STATES_TOOL,
        description: 'The states of the Retell LLM, as a step workflow.',
        parameters: { type: 'object', properties: {} },
      },
    },
    context: { task: { type: 'steps', id: STATES_TOOL, tool: { name: SUBMIT_TOOL }, steps } },
  };
}

function step(
  s: State,
  w: ToolWarnings,
  dialect: VariableDialect,
  names: ReadonlySet<string>,
  allow: readonly string[],
): Record<string, unknown> {
  for (const key of Object.keys(s.raw))
    if (!STATE_FIELDS.has(key))
      w.warn(
        ['states', s.index, key],
        'a state setting switchboard has no step field for; ignored',
      );
  const instructions: string[] = [];
  const prompt = s.raw['state_prompt'];
  if (typeof prompt === 'string' && prompt !== '')
    instructions.push(
      toMustache(prompt, dialect, (m) => w.warn(['states', s.index, 'state_prompt'], m)),
    );
  const edges = Array.isArray(s.raw['edges']) ? s.raw['edges'] : [];
  edges.forEach((edge, j) => {
    const field = ['states', s.index, 'edges', j];
    if (!isPlainObject(edge)) return;
    const to = edge['destination_state_name'];
    if (typeof to !== 'string' || !names.has(to)) {
      w.warn(
        field,
        `the edge leads to ${typeof to === 'string' ? `"${to}", which is no state` : 'no state'}; not imported`,
      );
      return;
    }
    for (const key of Object.keys(edge))
      if (!EDGE_FIELDS.has(key)) w.warn([...field, key], 'not a step field; ignored');
    if (edge['parameters'] !== undefined)
      w.warn(
        [...field, 'parameters'],
        `the values the model passes along the edge to "${to}" have no place in go_to_step; not imported`,
      );
    const when = typeof edge['description'] === 'string' ? edge['description'] : `moving to ${to}`;
    instructions.push(mustacheLiteral(`${when} → call ${SUBMIT_TOOL} with go_to_step "${to}".`));
  });
  return {
    id: s.name,
    goal: mustacheLiteral(`Follow the instructions of the "${s.name}" state.`),
    ...(instructions.length > 0 ? { instructions } : {}),
    tools: { allow: [...new Set(allow)], allowGoToStep: true },
    // A submission without go_to_step stays in the state (a loop-back), as Retell stays put.
    next: [s.name],
  };
}
