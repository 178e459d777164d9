/**
 * One run of workflow actions (a hook, or several hooks of one submission): the data expressions
 * and templates see, the actions themselves (`set`, `get`, `inc`, `save`, `call`, `say`), and what
 * the run produced for the session (session-variable writes, `say` texts, nested tool calls).
 *
 * Writes to session variables are collected and applied by the session after the call (as a
 * `set-vars` effect, with its `vars` event), but every later expression of the same run already
 * sees them — so a `save` in `on.submit` is visible to the `next` conditions, as the reference
 * requires.
 */
import type { SessionSystemValues } from '../../transform/types.js';
import { getOwn, isPlainObject } from '../../own-data.js';
import type { ToolCallResult } from '../execute-tool-call.js';
import { bareList, renderBounded } from '../../expressions/mustache.js';
import { MAX_RESULT_BYTES, Meter, resultTooLarge } from '../../expressions/budget.js';
import { isTruthy, type CompiledExpression } from '../../expressions/expression.js';
import { setOwnValue, type WorkflowState } from './state.js';
import type {
  ValueSource,
  VariableTarget,
  WorkflowAction,
  WorkflowInput,
} from '../../definition/workflow/types.js';

/** What a run needs from the session. */
export interface ExecutionIO {
  /** Session variables as they stand before this run. */
  readonly vars: Readonly<Record<string, unknown>>;
  readonly system: SessionSystemValues;
  /** Runs another tool through the normal pipeline (limits, schema, static parameters, defaults, handler). */
  callTool(name: string, args: Record<string, unknown>): Promise<ToolCallResult>;
}

/** A tool call the model should make itself (arguments incomplete, or `autoPopulate: false`). */
export interface PendingToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** Accumulates the outcome of the actions run for one task. */
export class Execution {
  readonly globals: Record<string, unknown> = {};
  readonly says: string[] = [];
  readonly nested: ToolCallResult[] = [];
  readonly pending: PendingToolCall[] = [];
  readonly #io: ExecutionIO;
  readonly #state: WorkflowState;
  readonly #inputs: () => readonly WorkflowInput[];

  constructor(io: ExecutionIO, state: WorkflowState, inputs: () => readonly WorkflowInput[]) {
    this.#io = io;
    this.#state = state;
    this.#inputs = inputs;
  }

  /** True when any session variable was written. */
  get wroteGlobals(): boolean {
    return Object.keys(this.globals).length > 0;
  }

  /**
   * The data expressions see: session variables (dotted names nested: `vars.x`, `a.b`), with this
   * run's writes over them, then `inputs` and `local`, then `extra`.
   */
  data(extra?: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const root: Record<string, unknown> = {};
    const put = (source: Readonly<Record<string, unknown>>): void => {
      for (const key of Object.keys(source)) setPath(root, key.split('.'), getOwn(source, key));
    };
    put(this.#io.vars);
    put(this.globals);
    const session = isPlainObject(root['vars']) ? root['vars'] : {};
    setOwnValue(session, 'session', { ...this.#io.system });
    setOwnValue(root, 'vars', session);
    setOwnValue(root, 'inputs', this.#state.inputs);
    setOwnValue(root, 'local', this.#state.local);
    if (extra !== undefined) for (const k of Object.keys(extra)) setOwnValue(root, k, extra[k]);
    return root;
  }

  /** Evaluates a condition (absent: true). */
  holds(
    condition: CompiledExpression | undefined,
    extra?: Readonly<Record<string, unknown>>,
  ): boolean {
    return condition === undefined || isTruthy(condition.evaluate(this.data(extra)));
  }

  /**
   * Renders a mustache template over {@link data}, without escaping; objects print as JSON. Throws
   * a ToolError past {@link MAX_RESULT_BYTES} characters or the step budget.
   */
  render(template: string, extra?: Readonly<Record<string, unknown>>): string {
    if (!template.includes('{{')) return template;
    const what = `the template "${template.length > 60 ? `${template.slice(0, 57)}...` : template}"`;
    const meter = new Meter(what);
    return renderBounded(template, nullProto(this.data(extra)), {
      maxChars: MAX_RESULT_BYTES,
      step: () => meter.tick(),
      tooLarge: () => resultTooLarge(`the text rendered by ${what}`),
    });
  }

  /** Renders every string inside `value`. */
  renderDeep(value: unknown, extra?: Readonly<Record<string, unknown>>): unknown {
    if (typeof value === 'string') return this.render(value, extra);
    if (Array.isArray(value)) return value.map((v) => this.renderDeep(v, extra));
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(value)) setOwnValue(out, k, this.renderDeep(value[k], extra));
      return out;
    }
    return value;
  }

  /** Runs actions in order; an action whose `if` is false is skipped. */
  async run(actions: readonly WorkflowAction[]): Promise<void> {
    for (const action of actions) {
      if (!this.holds(action.if)) continue;
      await this.#one(action);
    }
  }

  /** Reads a variable. */
  read(target: VariableTarget): unknown {
    switch (target.scope) {
      case 'local':
        return readPath(this.#state.local, target.name);
      case 'inputs':
        return readPath(this.#state.inputs, target.name);
      case 'global':
        return Object.hasOwn(this.globals, target.name)
          ? this.globals[target.name]
          : getOwn(this.#io.vars, target.name);
      default: {
        const _exhaustive: never = target.scope;
        return _exhaustive;
      }
    }
  }

  /** Writes a variable (`undefined` values are not written). */
  write(target: VariableTarget, value: unknown): void {
    if (value === undefined) return;
    const copy = structuredCloneJson(value);
    switch (target.scope) {
      case 'local':
        writePath(this.#state.local, target.name, copy);
        break;
      case 'inputs':
        writePath(this.#state.inputs, target.name, copy);
        break;
      case 'global':
        setOwnValue(this.globals, target.name, copy);
        break;
      default: {
        const _exhaustive: never = target.scope;
        void _exhaustive;
      }
    }
  }

  value(source: ValueSource): unknown {
    switch (source.kind) {
      case 'literal':
        return this.renderDeep(source.value);
      case 'expression':
        return source.expression.evaluate(this.data());
      case 'none':
        return undefined;
      default: {
        const _exhaustive: never = source;
        return _exhaustive;
      }
    }
  }

  async #one(action: WorkflowAction): Promise<void> {
    switch (action.action) {
      case 'set':
        this.write(action.target, this.value(action.value) ?? null);
        return;
      case 'inc': {
        const current = this.read(action.target);
        const base = typeof current === 'number' && Number.isFinite(current) ? current : 0;
        this.write(action.target, base + action.by);
        return;
      }
      case 'get': {
        const names = action.inputs ?? this.#inputs().map((i) => i.name);
        for (const name of names) {
          if (!action.overwrite && !isEmpty(readPath(this.#state.inputs, name))) continue;
          const value =
            action.value.kind === 'none'
              ? this.read({ scope: 'global', name })
              : this.value(action.value);
          if (value !== undefined && value !== null)
            writePath(this.#state.inputs, name, structuredCloneJson(value));
        }
        return;
      }
      case 'save': {
        // A bare `save` stores the inputs the definition declares, never whatever keys the
        // inputs happen to hold.
        const names = action.inputs ?? this.#inputs().map((i) => i.name);
        const picked: Record<string, unknown> = {};
        for (const name of names) {
          if (Object.hasOwn(this.#state.inputs, name))
            setOwnValue(picked, name, this.#state.inputs[name]);
        }
        if (action.target !== undefined) this.write(action.target, picked);
        else
          for (const name of Object.keys(picked))
            this.write({ scope: 'global', name }, picked[name]);
        return;
      }
      case 'say':
        this.says.push(this.render(action.text));
        return;
      case 'call': {
        const args = (
          action.arguments === undefined ? {} : this.renderDeep(action.arguments)
        ) as Record<string, unknown>;
        // autoPopulate false: Syllable always lets the model make this call.
        if (!action.autoPopulate) {
          this.pending.push({ name: action.tool, arguments: args });
          return;
        }
        const result = await this.#io.callTool(action.tool, args);
        this.nested.push(result);
        if (result.trace.isError) {
          if (result.trace.errorCode === 'invalid_arguments')
            this.pending.push({ name: action.tool, arguments: args });
          return;
        }
        const output = result.trace.output;
        for (const m of action.save) {
          const value = m.from.evaluate(isPlainObject(output) ? output : { result: output });
          if (value !== undefined && value !== null) this.write(m.to, value);
        }
        return;
      }
      default: {
        const _exhaustive: never = action;
        void _exhaustive;
      }
    }
  }
}

/** Absent, null, "", [] and {} are empty (as `default` transforms define it). */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.keys(value).length === 0;
  return false;
}

function readPath(root: Record<string, unknown>, path: string): unknown {
  let node: unknown = root;
  for (const seg of path.split('.')) {
    if (!isPlainObject(node)) return undefined;
    node = getOwn(node, seg);
  }
  return node;
}

function writePath(root: Record<string, unknown>, path: string, value: unknown): void {
  setPath(root, path.split('.'), value);
}

function setPath(root: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  let node = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const seg = segments[i]!;
    let child = getOwn(node, seg);
    if (!isPlainObject(child)) {
      child = {};
      setOwnValue(node, seg, child);
    }
    node = child as Record<string, unknown>;
  }
  setOwnValue(node, segments[segments.length - 1]!, value);
}

function structuredCloneJson(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** Null-prototype copy, so a template can read data only (never `constructor`, `toString`…). */
function nullProto(value: unknown): unknown {
  if (Array.isArray(value)) return bareList(value.map(nullProto));
  if (!isPlainObject(value)) return value;
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(value)) out[k] = nullProto(getOwn(value, k));
  return out;
}
