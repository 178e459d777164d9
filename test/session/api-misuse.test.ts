/**
 * The public functions a host calls first, called as JavaScript can call them: without their
 * options, or with the wrong thing. Each names what is missing, where the call is made, instead
 * of "Cannot read properties of undefined" from inside (or, for a wrapper, at the first turn).
 */
import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/errors.js';
import { RecordingModel } from '../../src/harness/recording-model.js';
import { withJsonToolCalls } from '../../src/models/json-tool-calls.js';
import { withTextMarkers } from '../../src/models/text-markers.js';
import { RedisSessionStore } from '../../src/redis/redis-store.js';
import { createSession } from '../../src/session/create-session.js';
import { restoreSession, resumeSession } from '../../src/session/restore-session.js';

// What a JavaScript caller can write; the casts stand in for the missing types.
const loose = <T>(fn: T) => fn as unknown as (...args: unknown[]) => unknown;
const WRAP = 'expected a Model to wrap (an object with stream(), e.g. openaiModel({ model }))';

describe('a host call without its options', () => {
  it('createSession() and restoreSession(state) name the missing options object', () => {
    for (const call of [() => loose(createSession)(), () => loose(restoreSession)({})]) {
      let error: unknown;
      try {
        call();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DefinitionError);
      expect((error as Error).message).toBe(
        'invalid session options:\n  options: expected an object, got nothing (undefined)',
      );
    }
  });

  it('resumeSession names a missing id and a missing store', async () => {
    await expect(loose(resumeSession)()).rejects.toThrow(
      new TypeError(
        "resumeSession: id: expected the session's id (a string), got nothing (undefined)",
      ),
    );
    await expect(loose(resumeSession)('s1')).rejects.toThrow(
      'resumeSession: options.store is required (the store the session was saved to), got nothing (undefined)',
    );
    await expect(loose(resumeSession)('s1', {})).rejects.toThrow(
      'resumeSession: options.store is required (the store the session was saved to), got options without store',
    );
  });

  it('a model wrapper given no model fails where it is made, naming itself', () => {
    expect(() => loose(withTextMarkers)()).toThrow(
      new TypeError(`withTextMarkers: ${WRAP}, got nothing (undefined)`),
    );
    expect(() => loose(withJsonToolCalls)({ name: 'm' })).toThrow(
      new TypeError(`withJsonToolCalls: ${WRAP}, got an object`),
    );
    expect(() => new (RecordingModel as unknown as new () => unknown)()).toThrow(
      new TypeError(`RecordingModel: ${WRAP}, got nothing (undefined)`),
    );
  });

  it('new RedisSessionStore() names its options', () => {
    expect(() => new (RedisSessionStore as unknown as new () => unknown)()).toThrow(
      new TypeError('RedisSessionStore: options: expected an object, got nothing (undefined)'),
    );
  });
});
