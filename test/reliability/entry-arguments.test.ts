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
