/** The tool browser's view of a tool set: what the model sees and what it does not. */
import type { ToolDefinition, ToolSet } from '../definition/types.js';
import type { DefinitionIssue } from '../errors.js';
import type { IssueView, ToolView } from './protocol.js';

/** Every tool of the set, in definition order, with the warnings that concern it. */
export function toolViews(tools: ToolSet): ToolView[] {
  return [...tools.tools.values()].map((def) => toolView(def, tools.warnings));
}

/** The issue as plain JSON. */
export function issueView(issue: DefinitionIssue): IssueView {
  return {
    code: issue.code,
    severity: issue.severity,
    path: issue.path,
    message: issue.message,
    ...(issue.file !== undefined ? { file: issue.file } : {}),
  };
}

function toolView(def: ToolDefinition, warnings: readonly DefinitionIssue[]): ToolView {
  // A warning's path starts with the tool's index in its file (`tools[2]…`).
  const prefix = `tools[${def.source.index}]`;
  const mine = warnings.filter(
    (w) =>
      (w.file === undefined || def.source.file === undefined || w.file === def.source.file) &&
      (w.path === prefix || w.path.startsWith(`${prefix}.`) || w.path.startsWith(`${prefix}[`)),
  );
  const speech = def.options.speech;
  return {
    name: def.name,
    type: def.type,
    ...(def.tool.function.description !== undefined
      ? { description: def.tool.function.description }
      : {}),
    parameters: def.tool.function.parameters,
    staticParameters: def.staticParameters.map((p) => ({
      name: p.name,
      type: p.type,
      required: p.required,
      ...(p.default !== undefined ? { default: p.default } : {}),
    })),
    transforms: def.rawDefaults,
    handler: handlerOf(def),
    speech: {
      afterSpeech: speech.afterSpeech,
      maxWaitMs: speech.maxWaitMs,
      interruptible: speech.interruptible,
      ...(speech.before !== undefined
        ? {
            before: {
              mode: speech.before.mode,
              delayMs: speech.before.delayMs,
              phrases: Object.fromEntries(speech.before.phrases),
            },
          }
        : {}),
      onError: Object.fromEntries(
        [...speech.onError].map(([k, v]) => [k, Object.fromEntries(v)] as const),
      ),
      bridgePhrases: def.options.bridgePhrases,
      background: def.options.background,
    },
    sideEffects: def.options.sideEffects,
    warnings: mine.map(issueView),
  };
}

function handlerOf(def: ToolDefinition): Record<string, unknown> {
  const common = {
    type: def.type,
    ...(def.service !== undefined ? { service: def.service } : {}),
    ...(def.callPolicy !== undefined ? { callPolicy: def.callPolicy } : {}),
    ...(def.options.save.length > 0 ? { save: def.options.save } : {}),
    ...(def.options.handoff !== undefined ? { handoff: def.options.handoff } : {}),
  };
  if (def.endpoint !== undefined)
    return {
      ...common,
      method: def.endpoint.method.toUpperCase(),
      url: def.endpoint.url,
      argumentLocation: def.endpoint.argumentLocation,
      timeoutSecs: def.endpoint.timeoutSecs,
    };
  if (def.hasResult) return { ...common, result: def.result };
  return common;
}
