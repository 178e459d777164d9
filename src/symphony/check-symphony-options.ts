/**
 * createSymphony's options, checked when it is called (a TypeError, as its other host mistakes):
 * a configuration still a Promise or not loaded, a model name for a model, handlers that are not
 * functions failed as a TypeError deep inside or at the first run.
 */
import {
  checkOptions,
  fields,
  isBoolean,
  isFunction,
  kindOf,
  recordOf,
  withMethods,
  type Check,
} from '../option-checks.js';
import type { DefinitionIssue } from '../errors.js';

const isConfig: Check = (value, path, sink) => {
  const agents: unknown = (value as { agents?: unknown } | null | undefined)?.agents;
  if (agents instanceof Map) return;
  const hint = kindOf(value).startsWith('a Promise')
    ? ': `await` the loadSymphony(...) call'
    : agents !== undefined
      ? ": this is a configuration's content; pass it through `await loadSymphony(...)` first"
      : ' (from `await loadSymphony(...)`)';
  sink.problem(path, `expected a loaded Symphony configuration, got ${kindOf(value)}${hint}`);
};

const isModel = withMethods('a Model (e.g. openaiModel({ model }))', 'stream');

/** A Model, or a factory of one per agent. */
const isModelChoice: Check = (value, path, sink) => {
  if (typeof value !== 'function') isModel(value, path, sink);
};

/** Functions by name: an object or a Map. */
const named: Check = (value, path, sink) => {
  if (value instanceof Map)
    value.forEach((v: unknown, k: unknown) => isFunction(v, `${path}.${String(k)}`, sink));
  else recordOf(isFunction)(value, path, sink);
};

/** Every key of SymphonyOptions (runner.ts). */
const SHAPE: Readonly<Record<string, Check>> = {
  config: isConfig,
  model: isModelChoice,
  actions: named,
  delegators: named,
  tracing: fields({
    tracer: withMethods('an OpenTelemetry Tracer', 'startSpan'),
    propagateContext: isBoolean,
    recordValues: isBoolean,
    recordUrlValues: isBoolean,
  }),
  onWarning: isFunction,
  _internal: fields({ now: isFunction, sleep: isFunction }),
};

const shape = fields(SHAPE, ['config', 'model']);

/** Throws a TypeError `createSymphony: path: …; …` listing every wrong option. */
export function checkSymphonyOptions(options: {
  readonly onWarning?: (warning: DefinitionIssue) => void;
}): void {
  checkOptions(shape, options, {
    caller: 'createSymphony',
    error: 'type',
    onWarning: (options as typeof options | undefined)?.onWarning,
  });
}
