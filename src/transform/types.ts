/**
 * Types of the defaults/transform interpreter (docs/transform.md): what a compiled rule set looks like,
 * what applying it needs, and the trace it leaves.
 */
import type { DefinitionIssue } from '../errors.js';

/** What a transform does to its target. */
export type TransformAction = 'default' | 'override' | 'remove';

/** Comparison operators of a `when` condition. */
export type WhenOperator = 'eq' | 'ne' | 'in' | 'not_in' | 'exists' | 'not_exists';

/** A `when` condition after compilation. */
export type Condition =
  | {
      readonly kind: 'compare';
      readonly key: string;
      readonly operator: WhenOperator;
      readonly value?: unknown;
    }
  | { readonly kind: 'all'; readonly conditions: readonly Condition[] }
  | { readonly kind: 'any'; readonly conditions: readonly Condition[] };

export type { SessionSystemValues } from '../expressions/mustache.js';
import type { SessionSystemValues } from '../expressions/mustache.js';

/** Everything applying a rule set may read besides the arguments. */
export interface TransformContext {
  /**
   * Session variables. Looked up first as a flat key (`"vars.hospital"` stored as one key, the
   * way Syllable agents store them), then as a nested path.
   */
  readonly vars?: Readonly<Record<string, unknown>>;
  /** System values, reachable as `vars.session.*`. */
  readonly session?: SessionSystemValues;
  /** What a template naming a missing value does. Default `skip`. */
  readonly onMissingTemplateValue?: 'skip' | 'error';
}

/** What happened to one rule during one application. */
export interface TransformTraceEntry {
  /** The rule's key as written (`tags.hospital`). */
  readonly key: string;
  readonly action: TransformAction;
  /** `applied`: the target changed (or was removed); `skipped`: left as it was. */
  readonly outcome: 'applied' | 'skipped';
  /**
   * Why a rule was skipped: `when_false`, `not_empty` (a `default` whose target has a value),
   * `missing_value` (a template named something absent), `not_an_object` (a dotted key whose
   * intermediate exists and is not a plain object), `absent` (a `remove` whose target was absent),
   * `format_error` (a template value of the wrong type for its format spec, e.g. `{x:d}` with a
   * string — Python's ValueError — or a rendered text over the length cap).
   */
  readonly reason?:
    'when_false' | 'not_empty' | 'missing_value' | 'not_an_object' | 'absent' | 'format_error';
  /** Human detail, e.g. which template field was missing. */
  readonly detail?: string;
  /** The value written, for applied default/override. */
  readonly value?: unknown;
}

/** Result of applying a compiled rule set. Inputs are never mutated. */
export type TransformOutcome =
  | {
      readonly ok: true;
      readonly args: Record<string, unknown>;
      readonly trace: readonly TransformTraceEntry[];
    }
  | {
      readonly ok: false;
      /** Always `missing_template_value` today. */
      readonly code: 'missing_template_value';
      readonly message: string;
      readonly trace: readonly TransformTraceEntry[];
    };

/** One compiled rule, with what it references (for the loader's lint). */
export interface CompiledRule {
  readonly key: string;
  readonly action: TransformAction;
  /** Template field roots referenced by `format`, as written: `name`, `params.name`, `vars.x`. */
  readonly templateFields: readonly string[];
  /** `when.key`s referenced (all nested conditions). */
  readonly whenKeys: readonly string[];
  /** True if the rule was written with both `value` and `format` (lint error). */
  readonly hasValueAndFormat: boolean;
  /** The compiled `when` condition, when the rule has one (for display). */
  readonly when?: Condition;
  /** The template, when the rule writes one (for display). */
  readonly format?: string;
  /** A copy of the literal value, when the rule writes one (for display). */
  readonly value?: unknown;
}

/** A rule set compiled once per tool; `apply` is pure. */
export interface CompiledDefaults {
  readonly rules: readonly CompiledRule[];
  apply(args: Readonly<Record<string, unknown>>, context?: TransformContext): TransformOutcome;
}

/** Output of compiling one `defaults` object. */
export interface CompileDefaultsResult {
  readonly compiled: CompiledDefaults;
  /** Problems found, with paths under the given base path. Errors mean `compiled` must not be used. */
  readonly issues: readonly DefinitionIssue[];
}

/** Types of static parameters. */
export type StaticParameterType = 'string' | 'int' | 'boolean' | 'data_source_list';

/** A parameter hidden from the model, merged into the arguments before `defaults`. */
export interface StaticParameter {
  readonly name: string;
  readonly type: StaticParameterType;
  readonly required: boolean;
  /** Absent when the definition gave no default. String values are mustache templates. */
  readonly default?: unknown;
  readonly description?: string;
}
