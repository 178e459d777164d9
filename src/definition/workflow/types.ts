/**
 * The resolved, compiled form of `context.task` (see docs/workflows.md). Built once at load by
 * compile-task.ts; the runtime never re-checks optional fields.
 */
import type { ArgumentValidator } from '../validator-types.js';
import type { CompiledExpression } from '../../expressions/expression.js';

/** A JSON Schema object. */
export type JsonSchemaObject = Record<string, unknown>;

/** Where a `set`/`inc`/`save` writes: the workflow's own variables, the step's inputs, or the session. */
export type VariableScope = 'local' | 'inputs' | 'global';

/** A variable path split into its scope and the name inside it. */
export interface VariableTarget {
  readonly scope: VariableScope;
  /** Inside `local`/`inputs`: the key; for `global`: the session variable name as written. */
  readonly name: string;
}

/** A value given literally or computed by an expression. */
export type ValueSource =
  | { readonly kind: 'literal'; readonly value: unknown }
  | { readonly kind: 'expression'; readonly expression: CompiledExpression }
  | { readonly kind: 'none' };

/** One action of a lifecycle hook (Syllable's `*Action` types). */
export type WorkflowAction =
  | {
      readonly action: 'set';
      readonly target: VariableTarget;
      readonly value: ValueSource;
      readonly if?: CompiledExpression;
    }
  | {
      readonly action: 'get';
      /** Absent: every input of the step. */
      readonly inputs?: readonly string[];
      readonly overwrite: boolean;
      readonly value: ValueSource;
      readonly if?: CompiledExpression;
    }
  | {
      readonly action: 'inc';
      readonly target: VariableTarget;
      /** Default 1. */
      readonly by: number;
      readonly if?: CompiledExpression;
    }
  | {
      readonly action: 'save';
      /** Absent: each input becomes a session variable of its own name. */
      readonly target?: VariableTarget;
      /** Absent: every collected input. */
      readonly inputs?: readonly string[];
      readonly if?: CompiledExpression;
    }
  | {
      readonly action: 'call';
      readonly tool: string;
      /**
       * Syllable's `autoPopulate`. True (default, `true`/`"required"`): the engine makes the call
       * when the arguments validate, else asks the model; false: always asks the model.
       */
      readonly autoPopulate: boolean;
      /** Template strings are rendered (mustache) before the call. */
      readonly arguments?: Readonly<Record<string, unknown>>;
      readonly save: readonly {
        readonly from: CompiledExpression;
        readonly to: VariableTarget;
      }[];
      readonly if?: CompiledExpression;
    }
  | {
      readonly action: 'say';
      readonly text: string;
      /** Default `assistant`. */
      readonly role: 'user' | 'assistant';
      readonly if?: CompiledExpression;
    };

/** The hooks of a step. Each list runs in order. */
export interface StepHooks {
  readonly start: readonly WorkflowAction[];
  readonly enter: readonly WorkflowAction[];
  readonly presubmit: readonly WorkflowAction[];
  readonly submit: readonly WorkflowAction[];
}

/** One line of instructions, shown when its condition holds. */
export interface Instruction {
  readonly text: string;
  readonly if?: CompiledExpression;
}

/** One `next` entry. */
export interface Transition {
  readonly id: string;
  readonly if?: CompiledExpression;
  /** Inputs that must be collected (not empty) for this entry to match. */
  readonly requires: readonly string[];
}

/** An input the submit tool collects. */
export interface WorkflowInput {
  readonly name: string;
  /** Default true. */
  readonly required: boolean;
}

/** The generated tool for a step or an expression task: JSON Schema and its validator. */
export interface GeneratedTool {
  readonly parameters: JsonSchemaObject;
  readonly validator: ArgumentValidator;
}

/** One step. */
export interface WorkflowStep {
  readonly id: string;
  readonly goal: string;
  readonly instructions: readonly Instruction[];
  readonly inputs: readonly WorkflowInput[];
  /** The names of {@link inputs}: the only keys a submission may carry. */
  readonly inputNames: ReadonlySet<string>;
  readonly submit: GeneratedTool;
  readonly on: StepHooks;
  /** Empty: terminal. */
  readonly next: readonly Transition[];
  readonly tools: {
    /** Absent: every tool stays visible. */
    readonly allow?: readonly string[];
    /** Default false. */
    readonly call: boolean;
    /** Default false. */
    readonly allowGoToStep: boolean;
  };
}

/** A task variable with its initial value. */
export interface TaskVariable {
  readonly name: string;
  readonly value: ValueSource;
}

/** What every workflow task has (`StepsTask`, `ExpressionTask`, `EventTask`). */
export interface TaskBase {
  /** The key of this task's state in the session: `id`, else `<tool name>#<index>`. */
  readonly key: string;
  /** The tool definition that holds the task. */
  readonly owner: string;
  readonly variables: readonly TaskVariable[];
}

/** A Step Workflow. */
export interface StepsTask extends TaskBase {
  readonly type: 'steps';
  /** The submit tool's name (`tool.name`, else the owner's function name). */
  readonly submitName: string;
  /** `tool.description`: the submit tool's description before activation (manual start). */
  readonly description: string;
  /** Default `auto`. */
  readonly start: 'auto' | 'manual';
  readonly steps: readonly WorkflowStep[];
  readonly stepById: ReadonlyMap<string, WorkflowStep>;
}

/** An expression task: a tool computing one expression over its inputs. */
export interface ExpressionTask extends TaskBase {
  readonly type: 'expression';
  readonly toolName: string;
  readonly description: string;
  readonly inputs: readonly WorkflowInput[];
  readonly tool: GeneratedTool;
  readonly expression?: CompiledExpression;
  /** Returned instead of the expression's value when given (strings rendered as templates). */
  readonly hasOutput: boolean;
  readonly output?: unknown;
  readonly on: {
    readonly start: readonly WorkflowAction[];
    readonly submit: readonly WorkflowAction[];
  };
}

/** An event task: actions on the session's first user input; no tool. */
export interface EventTask extends TaskBase {
  readonly type: 'event';
  readonly on: { readonly start: readonly WorkflowAction[] };
}

/** Any task. */
export type WorkflowTask = StepsTask | ExpressionTask | EventTask;
