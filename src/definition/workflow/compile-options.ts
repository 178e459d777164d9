/**
 * What every part of task compilation shares: where the task sits, how an issue is reported,
 * and the names no variable or input may take.
 */
import type { DefinitionIssue } from '../../errors.js';
import type { ValidatorFactory } from '../validator.js';
import type { WorkflowTask } from './types.js';

/** Where the task sits and what compiles schemas. */
export interface CompileTaskOptions {
  /** JSON path of the `context` field, e.g. `tools[2].context`. */
  readonly path: string;
  readonly file: string | undefined;
  /** The function name of the definition holding the task. */
  readonly owner: string;
  readonly validators: ValidatorFactory;
}

/** The compiled tasks (empty when any error was found) and every issue. */
export interface CompileTaskResult {
  readonly tasks: readonly WorkflowTask[];
  readonly issues: readonly DefinitionIssue[];
}

/** Names that would reach an object's prototype when used as a key. */
export const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** Records an issue at a JSON path. */
export type At = (
  path: string,
  code: string,
  message: string,
  severity?: 'error' | 'warning',
) => void;
