/**
 * What one workflow evaluation may cost and produce (docs/workflows.md, "Expressions and their
 * bounds"). Expressions and templates are written by definition authors but run over data the
 * model supplies (arguments up to 256 KiB), so neither their time nor their output may grow with
 * that data unchecked.
 *
 * A {@link Meter} counts steps (CEL: each comprehension iteration and each variable read;
 * mustache: each section pass) and checks a time slice at every step; either limit ends the
 * evaluation with a typed {@link ToolError} (`expression_budget`). The step limit makes the outcome
 * the same on every machine for ordinary expressions; the time slice bounds steps whose own cost
 * grows with the data (a `in` over a long list). {@link checkResultSize} measures a value as JSON
 * without building the text, so an oversized result is refused (`result_too_large`) before it is
 * ever stringified.
 */
import { ToolError } from '../errors.js';
import { isPlainObject } from '../own-data.js';

/** Steps one evaluation may take. */
export const MAX_EVALUATION_STEPS = 100_000;
/** Milliseconds one evaluation may run. */
export const EVALUATION_TIME_SLICE_MS = 50;
/**
 * Steps before the time slice can end an evaluation: a garbage-collection pause or a busy machine
 * must not fail a condition that reads a few variables; every real workload takes more steps.
 */
export const MIN_STEPS_BEFORE_TIME_SLICE = 16;
/** Largest computed or rendered result, in bytes of JSON (the endpoint response cap: 1 MiB). */
export const MAX_RESULT_BYTES = 1024 * 1024;
/** Deepest computed result (the endpoint response depth cap). */
export const MAX_RESULT_DEPTH = 64;

/** Limits of one evaluation; every field has the default named on it. */
export interface BudgetOptions {
  /** Default {@link MAX_EVALUATION_STEPS}. */
  readonly maxSteps?: number;
  /** Default {@link EVALUATION_TIME_SLICE_MS}. */
  readonly timeSliceMs?: number;
  /** Milliseconds, monotonic. Default `performance.now`. */
  readonly now?: () => number;
}

/** Counts the steps of one evaluation and ends it when over budget. */
export class Meter {
  #steps = 0;
  readonly #maxSteps: number;
  readonly #slice: number;
  readonly #deadline: number;
  readonly #now: () => number;
  readonly #what: string;
  #exceeded: ToolError | undefined;

  /** `what` names the evaluation in the error ("CEL expression `…`"). */
  constructor(what: string, options: BudgetOptions = {}) {
    this.#what = what;
    this.#maxSteps = options.maxSteps ?? MAX_EVALUATION_STEPS;
    this.#now = options.now ?? (() => performance.now());
    this.#slice = options.timeSliceMs ?? EVALUATION_TIME_SLICE_MS;
    this.#deadline = this.#now() + this.#slice;
  }

  /** The error that ended the evaluation, once it has. */
  get exceeded(): ToolError | undefined {
    return this.#exceeded;
  }

  /** One step; throws the budget error (again on every later step) once over either limit. */
  tick(): void {
    this.charge(1);
  }

  /** `steps` steps at once, for one operation whose cost is known before it runs. */
  charge(steps: number): void {
    if (this.#exceeded !== undefined) throw this.#exceeded;
    this.#steps += steps;
    if (this.#steps > this.#maxSteps)
      this.#fail(`took more than ${this.#maxSteps} steps over this data`);
    else if (this.#steps > MIN_STEPS_BEFORE_TIME_SLICE && this.#now() > this.#deadline)
      this.#fail(`ran longer than its ${this.#slice} ms time slice`);
  }

  #fail(why: string): never {
    this.#exceeded = new ToolError(
      'expression_budget',
      `${this.#what} ${why}; the evaluation was stopped`,
    );
    throw this.#exceeded;
  }
}

/** The error for a result over {@link MAX_RESULT_BYTES} or {@link MAX_RESULT_DEPTH}. */
export function resultTooLarge(what: string, why = `exceeds ${MAX_RESULT_BYTES} bytes`): ToolError {
  return new ToolError('result_too_large', `${what} ${why}; it was not used`);
}

/** What a result converted or checked so far has cost; each throws {@link resultTooLarge} once over. */
export interface ResultMeter {
  /** Counts `n` more bytes of the result's JSON form. */
  spend(n: number): void;
  /** Checks the nesting depth reached. */
  depth(depth: number): void;
}

/** A meter of one result against `maxBytes` and {@link MAX_RESULT_DEPTH}. */
export function resultMeter(what: string, maxBytes = MAX_RESULT_BYTES): ResultMeter {
  let left = maxBytes;
  return {
    spend: (n) => {
      left -= n;
      if (left < 0) throw resultTooLarge(what, `exceeds ${maxBytes} bytes`);
    },
    depth: (depth) => {
      if (depth > MAX_RESULT_DEPTH)
        throw resultTooLarge(what, `nests deeper than ${MAX_RESULT_DEPTH} levels`);
    },
  };
}

/**
 * Throws {@link resultTooLarge} when `value` as JSON would exceed `maxBytes` or nest deeper than
 * {@link MAX_RESULT_DEPTH}. Stops as soon as the budget is spent, so it costs at most O(maxBytes)
 * whatever the value (a list holding one long string a million times included).
 */
export function checkResultSize(what: string, value: unknown, maxBytes = MAX_RESULT_BYTES): void {
  const { spend, depth: checkDepth } = resultMeter(what, maxBytes);
  const walk = (v: unknown, depth: number): void => {
    checkDepth(depth);
    if (typeof v === 'string') {
      // Length first: a rope of many megabytes is refused without being flattened.
      spend(v.length + 2);
      spend(Buffer.byteLength(v) - v.length);
    } else if (Array.isArray(v)) {
      spend(2);
      for (const item of v) {
        spend(1);
        walk(item, depth + 1);
      }
    } else if (isPlainObject(v)) {
      spend(2);
      for (const key of Object.keys(v)) {
        spend(key.length + 4);
        walk(v[key], depth + 1);
      }
    } else spend(v === undefined ? 0 : String(v).length);
  };
  walk(value, 0);
}
