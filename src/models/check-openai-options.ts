/**
 * openaiModel's options, checked at creation: a TypeError listing each wrong option by its path
 * (`openaiModel: timeoutMs: must be …; toolChoice: expected "auto" or …`), never quoting a value
 * (the key is one). An unknown option is a warning naming the nearest one.
 */
import {
  checkOptions,
  fields,
  integer,
  isBoolean,
  isFunction,
  isNonEmptyString,
  isString,
  kindOf,
  MAX_TIMER_MS,
  oneOf,
  positive,
  type Check,
} from '../option-checks.js';
import { isPlainObject } from '../own-data.js';

/** Body fields the adapter writes itself; `extraBody` may not replace them. */
const OWNED_FIELDS: readonly string[] = ['model', 'messages', 'stream', 'stream_options', 'tools'];

const temperature: Check = (value, path, sink) => {
  if (typeof value !== 'number' || !(value >= 0 && value <= 2))
    sink.problem(
      path,
      `expected a number from 0 to 2, got ${typeof value === 'number' ? String(value) : kindOf(value)}`,
    );
};

/**
 * Every option's shape (a TypeError naming each, at creation): no `model`, `timeoutMs: '5000'`,
 * `toolChoice: 'requierd'` or a misspelt option were accepted, and the first call failed or the
 * server chose instead. `extraBody` may not set the fields the adapter writes.
 */
const SHAPE = fields(
  {
    model: isNonEmptyString,
    baseURL: isNonEmptyString,
    apiKey: isString,
    fetch: isFunction,
    timeoutMs: positive(MAX_TIMER_MS, 'milliseconds'),
    timeout: positive(MAX_TIMER_MS, 'milliseconds'),
    maxRetries: integer(0),
    temperature,
    maxTokens: integer(1),
    maxCompletionTokens: integer(1),
    toolChoice: (value, path, sink) =>
      typeof value === 'object' && value !== null
        ? fields({ name: isNonEmptyString }, ['name'])(value, path, sink)
        : oneOf('auto', 'none', 'required')(value, path, sink),
    parallelToolCalls: isBoolean,
    extraBody: (value, path, sink) => {
      if (!isPlainObject(value))
        return sink.problem(path, `expected an object, got ${kindOf(value)}`);
      const owned = OWNED_FIELDS.filter((k) => Object.hasOwn(value, k));
      if (owned.length > 0)
        sink.problem(
          path,
          `cannot set ${owned.map((k) => `"${k}"`).join(', ')} (the adapter writes them)`,
        );
    },
    client: (value, path, sink) => {
      if (typeof value !== 'object' || value === null)
        sink.problem(path, `expected an OpenAI client, got ${kindOf(value)}`);
    },
  },
  ['model'],
);

/** Refuses settings no server would accept, naming the option (a host's mistake, at creation). */
export function checkOpenAIOptions(options: unknown): void {
  checkOptions(SHAPE, options, { caller: 'openaiModel', error: 'type' });
}
