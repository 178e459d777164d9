/**
 * A pipeline run: steps start as soon as every step they depend on has succeeded (independent
 * steps run concurrently), each with its inputs resolved (`$variable`, `@step.path`), its retries
 * (`retryConfig`, else the `retry` error strategy) and its `timeout`; outputs (`.result.field`)
 * are written into the variables as steps finish. A failure stops the pipeline (`stop`, `retry`)
 * or only the steps that depend on it (`continue`).
 */
import { getOwn } from '../own-data.js';
import { MissingReference, parseOutputPath, resolveInputs, walk } from './paths.js';
import { metrics, usageParts, type SymphonyRuntime, type UsagePart } from './runtime.js';
import { runAttempt, type Attempt } from './step-run.js';
import type {
  PipelineResult,
  PipelineStep,
  RetryConfig,
  StepOutcome,
  SymphonyPipeline,
} from './types.js';

export interface PipelineTask {
  readonly pipeline: SymphonyPipeline;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal | undefined;
}

const ONE_ATTEMPT: RetryConfig = {
  maxAttempts: 1,
  delay: 0,
  backoffFactor: 1,
  retryableErrors: [],
};

export async function runPipeline(
  rt: SymphonyRuntime,
  input: PipelineTask,
): Promise<PipelineResult> {
  const { pipeline, signal } = input;
  const startTime = rt.now();
  const vars = new Map<string, unknown>();
  for (const source of [pipeline.variables, input.variables])
    for (const k of Object.keys(source)) vars.set(k, getOwn(source as Record<string, unknown>, k));
  const outcomes = new Map<string, unknown>();
  const done = new Map<string, StepOutcome>();
  const running = new Map<string, Promise<string>>();
  const usage: UsagePart[] = [];
  let toolCalls = 0;
  let stoppedAt: string | undefined;

  const finish = (step: PipelineStep, outcome: StepOutcome): void => {
    done.set(step.id, outcome);
    // A stopped run stops whatever the strategy: `continue` is about failures, not the caller.
    if (
      outcome.status === 'failed' &&
      (pipeline.errorStrategy.type !== 'continue' || signal?.aborted === true)
    )
      stoppedAt ??= step.id;
  };
  const skip = (step: PipelineStep, why: string): void =>
    finish(step, {
      id: step.id,
      name: step.name,
      type: step.type,
      status: 'skipped',
      attempts: 0,
      duration: 0,
      error: why,
      errorCode: 'skipped',
    });

  for (;;) {
    for (const step of pipeline.steps) {
      if (done.has(step.id) || running.has(step.id)) continue;
      if (stoppedAt !== undefined) {
        skip(step, `not run: the pipeline stopped at step ${stoppedAt}`);
        continue;
      }
      const blocked = step.dependencies.find(
        (d) => done.has(d) && done.get(d)?.status !== 'succeeded',
      );
      if (blocked !== undefined) {
        skip(step, `not run: step ${blocked} did not succeed`);
        continue;
      }
      if (!step.dependencies.every((d) => done.has(d))) continue;
      running.set(
        step.id,
        runStep(rt, step, pipeline, vars, outcomes, signal).then((r) => {
          toolCalls += r.toolCalls;
          usage.push(...r.usage);
          if (r.outcome.status === 'succeeded') {
            outcomes.set(step.id, r.outcome.output);
            for (const [k, v] of r.writes) vars.set(k, v);
          }
          finish(step, r.outcome);
          return step.id;
        }),
      );
    }
    if (running.size === 0) break;
    running.delete(await Promise.race(running.values()));
  }
  const steps = pipeline.steps.map((s) => done.get(s.id) as StepOutcome);
  const failed = steps.find((s) => s.status === 'failed');
  return {
    success: steps.every((s) => s.status === 'succeeded'),
    pipeline: pipeline.name,
    variables: Object.fromEntries(vars),
    steps,
    ...(failed === undefined ? {} : { error: `step ${failed.id}: ${failed.error ?? 'failed'}` }),
    metrics: metrics(startTime, rt.now(), toolCalls, usage),
  };
}

interface StepRun {
  readonly outcome: StepOutcome;
  readonly writes: ReadonlyMap<string, unknown>;
  readonly toolCalls: number;
  readonly usage: readonly UsagePart[];
}

async function runStep(
  rt: SymphonyRuntime,
  step: PipelineStep,
  pipeline: SymphonyPipeline,
  vars: ReadonlyMap<string, unknown>,
  outcomes: ReadonlyMap<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<StepRun> {
  const started = rt.now();
  const strategy = pipeline.errorStrategy;
  const policy =
    step.retry ??
    (strategy.type === 'retry'
      ? {
          maxAttempts: strategy.maxAttempts,
          delay: strategy.delay,
          backoffFactor: 1,
          retryableErrors: [],
        }
      : ONE_ATTEMPT);
  const base = { id: step.id, name: step.name, type: step.type };
  const usage: UsagePart[] = [];
  let toolCalls = 0;
  const failed = (attempts: number, code: string, message: string, output?: unknown): StepRun => ({
    outcome: {
      ...base,
      status: 'failed',
      attempts,
      duration: Math.max(0, rt.now() - started),
      ...(output === undefined ? {} : { output }),
      error: message,
      errorCode: code,
    },
    writes: new Map(),
    toolCalls,
    usage,
  });
  let inputs: Record<string, unknown>;
  try {
    inputs = resolveInputs(step.inputs, vars, outcomes, `steps.${step.id}.inputs`) as Record<
      string,
      unknown
    >;
  } catch (error) {
    if (error instanceof MissingReference) return failed(0, 'missing_input', error.message);
    throw error;
  }
  let delay = policy.delay;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted === true)
      return failed(attempt - 1, 'cancelled', 'the pipeline was stopped');
    const a: Attempt = await runAttempt(rt, step, inputs, signal);
    toolCalls += a.toolCalls;
    if (a.result !== undefined) usage.push(...usageParts(a.result));
    if (a.failure === undefined) {
      const writes = new Map<string, unknown>();
      for (const [variable, path] of step.outputs) {
        const found = walk(a.output, parseOutputPath(path) ?? []);
        if ('missing' in found)
          return failed(
            attempt,
            'missing_output',
            `outputs.${variable}: the step's result has no ${found.missing}`,
            a.output,
          );
        writes.set(variable, found.value);
      }
      return {
        outcome: {
          ...base,
          status: 'succeeded',
          attempts: attempt,
          duration: Math.max(0, rt.now() - started),
          output: a.output,
        },
        writes,
        toolCalls,
        usage,
      };
    }
    if (attempt >= policy.maxAttempts || !retryable(policy, a.failure))
      return failed(attempt, a.failure.code, a.failure.message, a.output);
    try {
      await rt.sleep(delay, signal);
    } catch {
      return failed(attempt, 'cancelled', 'the pipeline was stopped');
    }
    delay *= policy.backoffFactor;
  }
}

/** Retried when the list is empty, or an entry is the failure's code or occurs in its message. */
function retryable(policy: RetryConfig, failure: { code: string; message: string }): boolean {
  const list = policy.retryableErrors;
  return list.length === 0 || list.some((e) => e === failure.code || failure.message.includes(e));
}
