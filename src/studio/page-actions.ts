/**
 * The host's answers to action tools, declared in the studio's page in a fixture's `actions:`
 * format (`result`, `say`, `vars`, `handoff`, `end_session`, `error`); a saved fixture carries
 * them. An action without a declared answer succeeds with its definition's result.
 */
import type { ToolSet } from '../definition/types.js';
import type { ActionHandler } from '../handlers/types.js';
import { fixtureActions } from '../harness/fixture-actions.js';
import { fixtureActionSchema, type FixtureAction } from '../harness/fixture-schema.js';
import { StudioProblem } from './studio-problem.js';

/** The declared answers and the session's handlers that read them. */
export class PageActions {
  readonly #tools: ToolSet;
  #declared = new Map<string, FixtureAction>();
  #handlers = new Map<string, ActionHandler>();

  constructor(tools: ToolSet) {
    this.#tools = tools;
  }

  /** The answers declared now, by action tool. */
  get declared(): ReadonlyMap<string, FixtureAction> {
    return this.#declared;
  }

  /** One handler per action tool, reading the answers declared at call time. */
  handlers(): Map<string, ActionHandler> {
    const out = new Map<string, ActionHandler>();
    for (const tool of this.#tools.tools.values())
      if (tool.type === 'action')
        out.set(tool.name, (args, context) =>
          (this.#handlers.get(tool.name) ?? (() => undefined))(args, context),
        );
    return out;
  }

  /** Replaces every answer; nothing changes when one is refused (`bad_action`). */
  set(answers: ReadonlyMap<string, unknown>): void {
    const parsed = new Map<string, FixtureAction>();
    for (const [name, answer] of answers) {
      if (this.#tools.tools.get(name)?.type !== 'action')
        throw new StudioProblem(400, 'bad_action', `${JSON.stringify(name)} is not an action tool`);
      const checked = fixtureActionSchema.safeParse(answer);
      if (!checked.success)
        throw new StudioProblem(
          400,
          'bad_action',
          `${name}: ${checked.error.issues.map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ')}`,
        );
      parsed.set(name, checked.data);
    }
    this.#declared = parsed;
    this.#handlers = fixtureActions(Object.fromEntries(parsed));
  }
}
