/**
 * The outcome of running fixtures: per fixture a status, its failures (each with a kind, the
 * turn it belongs to and the mismatches), and the observed turns for narration and reporting.
 */
import type { DefinitionIssue } from '../errors.js';
import { argumentError } from '../option-checks.js';
import type { Mismatch } from './match.js';
import type { ObservedTurn } from './observe.js';

/** Why a fixture failed. */
export type FailureKind =
  /** An `expect` block did not match. */
  | 'expectation'
  /** Scripted model steps of a turn were never used. */
  | 'unused_steps'
  /** The model was called more times than the turn scripted. */
  | 'model_overcalled'
  /** A request no declared `http` exchange matches. */
  | 'undeclared_request'
  /** A declared `http` exchange was never requested (or fewer times than `times`). */
  | 'unused_exchange'
  /** A command run no declared `commands` exchange matches. */
  | 'undeclared_command'
  /** A declared `commands` exchange was never run (or fewer times than `times`). */
  | 'unused_command'
  /** A scripted `spoken` or `interrupt_after` point matched no utterance of its turn. */
  | 'unmatched_speech_point'
  /** A model call failed and the turn did not expect it (`expect.model_error`). */
  | 'model_error'
  /** The session threw (it should never). */
  | 'session_error';

/** One reason a fixture failed. */
export interface FixtureFailure {
  readonly kind: FailureKind;
  /** 0-based turn index, when the failure belongs to a turn. */
  readonly turn?: number;
  readonly message: string;
  readonly mismatches?: readonly Mismatch[];
}

/** `passed`, `failed` (ran, did not match) or `error` (unusable: bad fixture or tools). */
export type FixtureStatus = 'passed' | 'failed' | 'error';

/** The result of one fixture. */
export interface FixtureResult {
  readonly file: string;
  /** The fixture's `name`, or the file when it could not be read. */
  readonly name: string;
  readonly status: FixtureStatus;
  readonly durationMs: number;
  readonly failures: readonly FixtureFailure[];
  /** Load problems (status `error`), and warnings of the tools file. */
  readonly issues: readonly DefinitionIssue[];
  readonly turns: readonly ObservedTurn[];
}

/** The result of a run over many fixtures. */
export interface RunSummary {
  readonly results: readonly FixtureResult[];
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  readonly durationMs: number;
}

/** Builds a summary from results. */
export function summarize(results: readonly FixtureResult[], durationMs: number): RunSummary {
  if (!Array.isArray(results))
    throw argumentError('summarize(results)', 'an array of fixture results', results);
  if (typeof durationMs !== 'number' || !Number.isFinite(durationMs))
    throw argumentError('summarize(results, durationMs)', 'a number of milliseconds', durationMs);
  return {
    results,
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    errors: results.filter((r) => r.status === 'error').length,
    durationMs,
  };
}

/** Process exit code of a run: 0 all passed, 2 any unusable input, else 1 when any failed. */
export function exitCodeOf(summary: RunSummary): 0 | 1 | 2 {
  checkSummary('exitCodeOf', summary);
  if (summary.errors > 0) return 2;
  return summary.failed > 0 ? 1 : 0;
}

/**
 * A TypeError naming the function when `summary` is no run summary: the reporters and
 * {@link exitCodeOf} are called by hosts from JavaScript, and a summary without counts would
 * otherwise be reported as "0 failed" (exit 0) or fail from inside.
 */
export function checkSummary(fn: string, summary: RunSummary): void {
  const s = summary as Partial<Record<keyof RunSummary, unknown>> | null | undefined;
  if (
    typeof s !== 'object' ||
    s === null ||
    !Array.isArray(s.results) ||
    typeof s.passed !== 'number' ||
    typeof s.failed !== 'number' ||
    typeof s.errors !== 'number'
  )
    throw argumentError(
      `${fn}(summary)`,
      'a run summary { results, passed, failed, errors, durationMs } (from runFixtures or summarize)',
      summary,
    );
}
