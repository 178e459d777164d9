/**
 * Runs a Symphony example under fixtures/symphony/: its `config` loaded as written, each agent on
 * a ScriptedModel of its own (`models`), host actions scripted per call (`actions`), delegators
 * answering as written (`delegators`), and the waits between retries recorded, not slept.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { createSymphony, loadSymphony } from '../../src/entries/symphony.js';
import type { AgentResult, PipelineResult, SymphonyConfig } from '../../src/entries/symphony.js';
import type { ActionHandler, DefinitionIssue } from '../../src/index.js';
import { ScriptedModel, type ScriptedStep } from '../../src/testing.js';

export interface Example {
  readonly description: string;
  readonly config: Record<string, unknown>;
  /** Scripted model steps per agent name (a team's own manager is `<team>-manager`). */
  readonly models?: Record<string, ScriptedStep[]>;
  /** Per tool: `returns` (every call) or `calls` (one per call, the last repeating). */
  readonly actions?: Record<string, { returns?: unknown; calls?: unknown[] }>;
  readonly delegators?: Record<string, unknown>;
  readonly run:
    | { agent: string; task?: string; variables?: Record<string, unknown> }
    | { team: string; task: string; variables?: Record<string, unknown> }
    | { pipeline: string; variables?: Record<string, unknown> };
  readonly expect: Record<string, unknown>;
  /** Waits between retries, ms, in order. */
  readonly expectDelays?: number[];
  /** Load warnings as `path: code`. */
  readonly expectWarnings?: string[];
}

export interface ExampleRun {
  readonly config: SymphonyConfig;
  readonly result: AgentResult | PipelineResult;
  readonly delays: number[];
  readonly models: Map<string, ScriptedModel>;
  readonly calls: Map<string, Record<string, unknown>[]>;
  readonly warnings: DefinitionIssue[];
}

export function readExample(path: string): Example {
  return parse(readFileSync(path, 'utf8')) as Example;
}

export async function runExample(example: Example): Promise<ExampleRun> {
  const config = await loadSymphony({ source: example.config });
  const models = new Map<string, ScriptedModel>();
  const calls = new Map<string, Record<string, unknown>[]>();
  const actions: Record<string, ActionHandler> = {};
  for (const [tool, script] of Object.entries(example.actions ?? {})) {
    calls.set(tool, []);
    actions[tool] = (args) => {
      const seen = calls.get(tool) as Record<string, unknown>[];
      seen.push({ ...args });
      if (script.calls !== undefined)
        return script.calls[Math.min(seen.length, script.calls.length) - 1];
      return script.returns;
    };
  }
  const delays: number[] = [];
  const warnings: DefinitionIssue[] = [];
  let clock = 1_000;
  const symphony = createSymphony({
    config,
    model: ({ agent }) => {
      const model = new ScriptedModel(example.models?.[agent] ?? [], { name: agent, record: true });
      models.set(agent, model);
      return model;
    },
    actions,
    delegators: Object.fromEntries(
      Object.entries(example.delegators ?? {}).map(([name, answer]) => [
        name,
        () => answer as string[],
      ]),
    ),
    onWarning: (w) => warnings.push(w),
    _internal: {
      now: () => (clock += 5),
      sleep: async (ms) => {
        delays.push(ms);
      },
    },
  });
  const run = example.run;
  const result =
    'pipeline' in run
      ? await symphony.runPipeline({
          pipeline: run.pipeline,
          ...(run.variables ? { variables: run.variables } : {}),
        })
      : 'team' in run
        ? await symphony.runTeam({
            team: run.team,
            task: run.task,
            ...(run.variables ? { variables: run.variables } : {}),
          })
        : await symphony.runAgent({
            agent: run.agent,
            ...(run.task ? { task: run.task } : {}),
            ...(run.variables ? { variables: run.variables } : {}),
          });
  for (const model of models.values()) model.assertComplete();
  return { config, result, delays, models, calls, warnings: [...config.warnings, ...warnings] };
}
