/**
 * The shape of every session option, checked at `createSession`/`restoreSession` for hosts whose
 * options no compiler checked (JavaScript, options read from a config file, a value typed `any`):
 * a string where a model belongs, `maxToolRounds: '3'` or a Promise of a tool set fails there,
 * naming the option, instead of as a TypeError at a caller's first turn. A key the engine does
 * not know is a warning (a host may pass a wider object on purpose), with the nearest option's
 * name. What a type cannot express (languages, tool defaults, services, commands) is checked
 * after this, in check-options.ts and its siblings.
 */
import { didYouMean } from '../did-you-mean.js';
import {
  anyValue,
  arrayOf,
  fields,
  integer,
  isBoolean,
  isFunction,
  isJsonData,
  isNonEmptyString,
  isString,
  isToolSet,
  kindOf,
  MAX_TIMER_MS,
  oneOf,
  positive,
  recordOf,
  withMethods,
  type Check,
  type CheckSink,
} from '../option-checks.js';
import { isConnectionPools } from '../handlers/endpoint/connection-pools.js';
import type { SessionOptions } from './types.js';

/** The longest deadline a Node timer holds, in seconds. */
export const MAX_TIMER_SECS = 2_147_483;

const isModel = withMethods('a Model (e.g. openaiModel({ model }))', 'stream');

const toolDefaults = recordOf(recordOf(anyValue));

/** Fields checked where their meaning lives (check-services.ts, check-commands.ts). */
const CHECKED_ELSEWHERE = anyValue;

const SHAPE: Readonly<Record<keyof SessionOptions, Check>> = {
  tools: isToolSet,
  model: isModel,
  actions: CHECKED_ELSEWHERE,
  vars: (value, path, sink) =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? isJsonData(value, path, sink)
      : sink.problem(path, `expected an object of variables, got ${kindOf(value)}`),
  language: isString,
  languages: arrayOf(isString),
  prompt: isString,
  agents: recordOf(
    fields(
      {
        prompt: isString,
        tools: arrayOf(isString),
        toolDefaults,
        model: isModel,
        maxCalls: integer(1),
        timeout: positive(MAX_TIMER_MS, 'milliseconds'),
      },
      { prompt: '' },
    ),
  ),
  agent: isNonEmptyString,
  toolDefaults,
  services: CHECKED_ELSEWHERE,
  commands: CHECKED_ELSEWHERE,
  commandRunner: withMethods('a command runner', 'run'),
  secrets: withMethods('a SecretSet', 'add', 'scrubText'),
  networkPolicy: fields({
    allowedHosts: arrayOf(isNonEmptyString),
    denyPrivateNetworks: isBoolean,
  }),
  dispatcher: withMethods('an undici Dispatcher', 'dispatch'),
  pools: (value, path, sink) => {
    if (!isConnectionPools(value))
      sink.problem(
        path,
        `expected connection pools from createConnectionPools(), got ${kindOf(value)}`,
      );
  },
  maxToolRounds: integer(1),
  finalAnswerAfterMaxRounds: isBoolean,
  onMissingTemplateValue: oneOf('skip', 'error'),
  actionTimeoutSecs: positive(MAX_TIMER_SECS, 'seconds'),
  toolTimeoutCapSecs: positive(MAX_TIMER_SECS, 'seconds'),
  maxCalls: integer(1),
  turnTimeoutMs: positive(MAX_TIMER_MS, 'milliseconds'),
  modelId: isNonEmptyString,
  bridge: fields({
    thresholdSecs: positive(MAX_TIMER_SECS, 'seconds'),
    phrases: recordOf(recordOf(arrayOf(isString))),
  }),
  limits: fields({
    maxArgumentBytes: integer(1),
    maxArgumentDepth: integer(1),
    maxFinalArgumentBytes: integer(1),
    maxCallsPerAnswer: integer(1),
    maxConcurrentEndpointCalls: integer(1),
  }),
  maxResponseBytes: integer(1),
  store: withMethods('a session store', 'get', 'set', 'delete'),
  id: isNonEmptyString,
  systemContext: isString,
  systemValues: fields({ timezone: isTimeZone, source: isString, target: isString }),
  tracing: fields({
    tracer: withMethods('an OpenTelemetry Tracer', 'startSpan'),
    propagateContext: isBoolean,
    recordValues: isBoolean,
    recordUrlValues: isBoolean,
  }),
  onEvent: isFunction,
  speechAck: oneOf('host', 'auto'),
  onTurn: isFunction,
  hostError: isFunction,
  onWarning: isFunction,
  closeWith: (value, path, sink) => {
    if (!Array.isArray(value)) sink.problem(path, 'expected an array of { close() }');
    else
      value.forEach((r: unknown, i) => {
        if (typeof (r as { close?: unknown } | null)?.close !== 'function')
          sink.problem(`${path}[${i}]`, 'expected an object with a close() method');
      });
  },
  _internal: fields({ now: isFunction, generateId: isFunction, sleep: isFunction }),
};

const checkShape = fields(SHAPE, {
  tools: 'a ToolSet from await loadTools(…)',
  model: 'a Model such as openaiModel({ model }) or a ScriptedModel',
});

/** The names of the session's options (a caller handing options on tells its own from these). */
export const SESSION_OPTION_NAMES: ReadonlySet<string> = new Set(Object.keys(SHAPE));

/** Checks every option's shape, then that `agent` and the agents' tools name what exists. */
export function checkOptionShapes(options: unknown, sink: CheckSink): void {
  let wrong = false;
  checkShape(options, '', {
    problem: (path, message, code) => {
      wrong = true;
      sink.problem(path === '' ? 'options' : path, message, code);
    },
    unknownKey: sink.unknownKey,
  });
  // The names below are read through the types the shapes promise.
  if (wrong) return;
  const { agent, agents } = options as SessionOptions;
  if (agent !== undefined && !(agents !== undefined && Object.hasOwn(agents, agent))) {
    const names = Object.keys(agents ?? {});
    sink.problem(
      'agent',
      `unknown agent ${JSON.stringify(agent)}${didYouMean(agent, names)}; agents: ${names.join(', ') || 'none (no `agents` option)'}`,
    );
  }
  const tools = (options as SessionOptions).tools.tools;
  for (const [name, config] of Object.entries(agents ?? {}))
    (Array.isArray(config?.tools) ? config.tools : []).forEach((tool: unknown, i) => {
      if (typeof tool === 'string' && !tools.has(tool))
        sink.problem(
          `agents.${name}.tools[${i}]`,
          `unknown tool ${JSON.stringify(tool)}${didYouMean(tool, tools.keys())}; tools: ${[...tools.keys()].join(', ')}`,
        );
    });
}

/** Time zones already found valid: building a formatter to ask costs tens of µs. */
const validZones = new Set<string>();

/** An IANA time zone name (`America/New_York`), as `Intl` knows them. */
export function isTimeZone(value: unknown, path: string, sink: CheckSink): void {
  if (typeof value !== 'string') {
    sink.problem(path, `expected an IANA time zone name, got ${kindOf(value)}`);
    return;
  }
  if (validZones.has(value)) return;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    if (validZones.size < 1000) validZones.add(value);
  } catch {
    sink.problem(path, `"${value}" is not an IANA time zone name (e.g. "America/New_York")`);
  }
}
