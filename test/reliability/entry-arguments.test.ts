/**
 * The lower-level functions of the package's entries (`switchboard/transform`, `/testing`,
 * `/handlers`, `/serve`, `/realtime`, the main entry's tool exports), called as JavaScript can
 * call them: with nothing, or with the wrong thing. Each throws a TypeError naming the function
 * and the parameter where it is called, not "Cannot read properties of undefined" from inside.
 */
import { describe, expect, it } from 'vitest';
import * as transform from '../../src/entries/transform.js';
import * as handlers from '../../src/entries/handlers.js';
import * as realtime from '../../src/entries/realtime.js';
import * as serve from '../../src/entries/serve.js';
import * as testing from '../../src/testing.js';
import * as main from '../../src/index.js';
import { loadTools } from '../../src/definition/load.js';

// What a JavaScript caller can write; the cast stands in for the missing types.
const loose = <T>(fn: T) => fn as unknown as (...args: unknown[]) => unknown;

async function errorOf(call: () => unknown): Promise<Error> {
  try {
    await call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to throw');
}

describe('entry functions called with nothing or the wrong thing', () => {
  it.each([
    [
      'compileCel',
      () => loose(transform.compileCel)(),
      'compileCel(source): expected a string, got nothing (undefined)',
    ],
    [
      'compileJmesPath',
      () => loose(transform.compileJmesPath)({}),
      'compileJmesPath(source): expected a string, got an object',
    ],
    [
      'compileExpression',
      () => loose(transform.compileExpression)({}),
      'compileExpression(raw): expected a JMESPath string, { type, expression } or { case }, got an object',
    ],
    [
      'compileExpression',
      () => loose(transform.compileExpression)(),
      'compileExpression(raw): expected a JMESPath string, { type, expression } or { case }, got nothing (undefined)',
    ],
    [
      'compileTemplate',
      () => loose(transform.compileTemplate)(7),
      'compileTemplate(source): expected a string, got a number',
    ],
    [
      'compileDefaults',
      () => loose(transform.compileDefaults)(),
      'compileDefaults(defaults): expected an object of rules by key, got nothing (undefined)',
    ],
    [
      'renderMustache',
      () => loose(transform.renderMustache)(undefined, {}),
      'renderMustache(template): expected a string, got nothing (undefined)',
    ],
    [
      'applyStaticParameters',
      () => loose(transform.applyStaticParameters)(),
      'applyStaticParameters(args): expected an object of arguments, got nothing (undefined)',
    ],
    [
      'applyStaticParameters',
      () => loose(transform.applyStaticParameters)({}, {}),
      "applyStaticParameters(params): expected an array (a tool's staticParameters), got an object",
    ],
    [
      'toChatTools',
      () => loose(main.toChatTools)(),
      'toChatTools(source): expected a ToolSet (from `await loadTools(...)`) or a list of its definitions, got nothing (undefined)',
    ],
    [
      'toResponsesTools',
      () => loose(main.toResponsesTools)({}),
      'toResponsesTools(source): expected a ToolSet (from `await loadTools(...)`) or a list of its definitions, got an object',
    ],
    [
      'toRealtimeTools',
      () => loose(realtime.toRealtimeTools)(null),
      'toRealtimeTools(source): expected a ToolSet (from `await loadTools(...)`) or a list of its definitions, got null',
    ],
    [
      'wsRealtimeConnection',
      () => loose(realtime.wsRealtimeConnection)({}),
      'wsRealtimeConnection(socket): expected a `ws` WebSocket, got an object',
    ],
    [
      'createActionHandler',
      () => loose(handlers.createActionHandler)({ actions: {} }),
      'createActionHandler(options.actions): expected a Map of action handlers by tool name, got an object',
    ],
    [
      'startRealtimeLoopback',
      () => loose(testing.startRealtimeLoopback)(),
      'startRealtimeLoopback(options.model): expected a Model (an object with stream(), e.g. new ScriptedModel(steps)), got nothing (undefined)',
    ],
    [
      'createHttpDouble',
      () => loose(testing.createHttpDouble)(),
      'createHttpDouble: options: expected an object, got nothing (undefined)',
    ],
    [
      'createHttpDouble',
      () => loose(testing.createHttpDouble)({}),
      'createHttpDouble: exchanges: is required',
    ],
    [
      'createHttpDouble',
      () => loose(testing.createHttpDouble)({ exchanges: ['GET /x'] }),
      'createHttpDouble: exchanges[0]: expected an exchange object, got a string',
    ],
    [
      'createCommandDouble',
      () => loose(testing.createCommandDouble)({ commands: { lookup: [] } }),
      'createCommandDouble: commands: expected a Map of runs by command name (new Map([[name, …]])), got an object',
    ],
    [
      'transformCall',
      () => loose(testing.transformCall)({}),
      'transformCall: tools: is required; tool: is required; args: is required',
    ],
  ])('%s', async (_name, call, message) => {
    const error = await errorOf(call);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(message);
  });

  it('a required option given under another spelling is named beside the missing one', async () => {
    const error = await errorOf(() => loose(testing.createHttpDouble)({ exchange: [] }));
    expect(error.message).toBe('createHttpDouble: exchanges: is required ("exchange" was given)');
  });

  it('transformCall names a tools file given where the ToolSet belongs', async () => {
    const error = await errorOf(() =>
      loose(testing.transformCall)({ tools: 'tools.json', tool: 'x', args: {} }),
    );
    expect(error.message).toContain('load it first with await loadTools("tools.json")');
  });

  it("parseChatHistory names the history's field when it is neither text nor a list", () => {
    expect(() => loose(serve.parseChatHistory)({ role: 'user' })).toThrow(
      'chat_history: expected the history as text, a list of lines or a list of { role, content } items, got an object',
    );
  });

  it('the right arguments still work, loaded definitions as a list included', async () => {
    const set = await loadTools([
      {
        type: 'context',
        tool: { type: 'function', function: { name: 'now', description: 'd', parameters: {} } },
      },
    ]);
    expect(main.toChatTools([...set.tools.values()]).map((t) => t.function.name)).toEqual(['now']);
    expect(
      transform.applyStaticParameters(Object.create(null) as Record<string, unknown>, []),
    ).toEqual({});
    expect(transform.compileExpression({ type: 'cel', expression: '1 + 1' }).ok).toBe(true);
    expect(serve.parseChatHistory('user: hi')).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

// The reporters and classifiers the docs show a host calling (docs/harness.md's reporters,
// docs/observability.md's failure renderings, docs/voice.md's side-effect questions). Those a
// host never calls directly (observeTurn, checkTurn: steps of the harness's own run) are left.
const SUMMARY =
  'expected a run summary { results, passed, failed, errors, durationMs } (from runFixtures or summarize)';
const TOOL = 'expected a loaded tool definition (from loadTools)';
describe('reporters and classifiers of engine results called with nothing or the wrong thing', () => {
  it.each([
    [
      'humanReport',
      () => loose(testing.humanReport)(),
      `humanReport(summary): ${SUMMARY}, got nothing (undefined)`,
    ],
    [
      'junitReport',
      () => loose(testing.junitReport)({}),
      `junitReport(summary): ${SUMMARY}, got an object`,
    ],
    [
      'tapReport',
      () => loose(testing.tapReport)([]),
      `tapReport(summary): ${SUMMARY}, got an array`,
    ],
    [
      'jsonReport',
      () => loose(testing.jsonReport)(),
      `jsonReport(summary): ${SUMMARY}, got nothing (undefined)`,
    ],
    // Without the check it answered 0 (all passed) for a summary without counts.
    [
      'exitCodeOf',
      () => loose(testing.exitCodeOf)({ results: [] }),
      `exitCodeOf(summary): ${SUMMARY}, got an object`,
    ],
    [
      'summarize',
      () => loose(testing.summarize)(),
      'summarize(results): expected an array of fixture results, got nothing (undefined)',
    ],
    [
      'summarize',
      () => loose(testing.summarize)([], '5'),
      'summarize(results, durationMs): expected a number of milliseconds, got a string',
    ],
    [
      'escapeXml',
      () => loose(testing.escapeXml)(5),
      'escapeXml(text): expected a string, got a number',
    ],
    [
      'failureOf',
      () => loose(main.failureOf)(),
      'failureOf(event): expected a session event { type, … }, got nothing (undefined)',
    ],
    [
      'failureForCaller',
      () => loose(main.failureForCaller)(),
      'failureForCaller(failure): expected a Failure { source, code, message }, got nothing (undefined)',
    ],
    [
      'failureForCaller',
      () => loose(main.failureForCaller)({ source: 'tool', code: 'toString' }),
      expect.stringMatching(
        /^failureForCaller\(failure\): code: expected one of invalid_arguments, .*, got "toString"$/,
      ),
    ],
    [
      'failureForCaller',
      () => loose(main.failureForCaller)({ source: 'model', code: 'timeout' }, { language: 5 }),
      'failureForCaller: options.language: expected a BCP-47 tag, got a number',
    ],
    [
      'failureForHost',
      () => loose(main.failureForHost)({ source: 'network' }),
      'failureForHost(failure): source: expected one of tool, model, session, got "network"',
    ],
    [
      'failureForModel',
      () => loose(main.failureForModel)({ source: 'model', code: 'timeout', message: 'm' }),
      'failureForModel(failure): source: expected one of tool, got "model"',
    ],
    [
      'failureInfo',
      () => loose(main.failureInfo)(null),
      'failureInfo(failure): expected a Failure { source, code, message }, got null',
    ],
    [
      'isRetryableToolError',
      () => loose(main.isRetryableToolError)(),
      expect.stringMatching(
        /^isRetryableToolError\(code\): expected one of invalid_arguments, .*, got nothing \(undefined\)$/,
      ),
    ],
    // It answered undefined for an inherited name: the table was a plain object read by the code.
    [
      'isRetryableModelError',
      () => loose(main.isRetryableModelError)('constructor'),
      expect.stringMatching(
        /^isRetryableModelError\(code\): expected one of http_status, .*, got "constructor"$/,
      ),
    ],
    [
      'isCancellable',
      () => loose(main.isCancellable)(),
      `isCancellable(tool): ${TOOL}, got nothing (undefined)`,
    ],
    ['mayRetry', () => loose(main.mayRetry)('lookup'), `mayRetry(tool): ${TOOL}, got a string`],
    [
      'dedupesIdenticalCalls',
      () => loose(main.dedupesIdenticalCalls)({}),
      `dedupesIdenticalCalls(tool): ${TOOL}, got an object`,
    ],
    [
      'sideEffectClass',
      () => loose(main.sideEffectClass)({ options: {} }),
      `sideEffectClass(tool): ${TOOL}, got an object`,
    ],
    [
      'defaultSideEffectClass',
      () => loose(main.defaultSideEffectClass)('rest', 'get'),
      'defaultSideEffectClass(type): expected one of endpoint, action, command, context, log, got "rest"',
    ],
  ] as [string, () => unknown, unknown][])('%s', async (_name, call, message) => {
    const error = await errorOf(call);
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toEqual(message);
  });

  it('the right arguments still work', async () => {
    const set = await loadTools([
      {
        type: 'endpoint',
        tool: { type: 'function', function: { name: 'add', description: 'd', parameters: {} } },
        endpoint: { url: 'https://api.example.com/a', method: 'post' },
      },
    ]);
    const tool = set.tools.get('add')!;
    expect([
      main.isCancellable(tool),
      main.mayRetry(tool),
      main.dedupesIdenticalCalls(tool),
    ]).toEqual([false, false, true]);
    expect(main.defaultSideEffectClass('endpoint', 'get')).toBe('none');
    const failure = {
      source: 'tool',
      code: 'timeout',
      message: 'slow',
      tool: 'add',
      callId: 'c',
    } as const;
    expect(main.failureForCaller(failure, { language: 'fr-FR' })).toMatch(/^Désolé/);
    expect(main.failureForModel(failure)).toEqual({ error: { code: 'timeout', message: 'slow' } });
    expect(main.isRetryableToolError('timeout')).toBe(true);
    expect(main.failureOf({ type: 'text', text: 'hi' } as never)).toBeUndefined();
    const summary = testing.summarize([], 3);
    expect(testing.exitCodeOf(summary)).toBe(0);
    expect(testing.humanReport(summary)).toContain('0 passed');
  });
});
