import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { RecordingModel } from '../../src/harness/recording-model.js';
import { ModelError } from '../../src/models/errors.js';
import { withJsonToolCalls } from '../../src/models/json-tool-calls.js';
import { withTextMarkers } from '../../src/models/text-markers.js';
import type { Model, ModelStreamPart } from '../../src/models/types.js';
import { createSession } from '../../src/session/create-session.js';

const KEY = 'sk-wrapped-9f8e7d6c5b4a';

/** A model that carries an API key and whose server echoes it in its error. */
function keyedModel(): Model {
  return {
    name: 'keyed',
    credentials: () => [KEY],
    // eslint-disable-next-line require-yield
    async *stream(): AsyncGenerator<ModelStreamPart> {
      throw new ModelError({
        code: 'http_status',
        model: 'keyed',
        status: 401,
        message: `model keyed answered HTTP 401: invalid api key ${KEY}`,
      });
    },
  };
}

const wrappers: readonly (readonly [string, (m: Model) => Model])[] = [
  ['withTextMarkers', (m) => withTextMarkers(m)],
  ['withJsonToolCalls', (m) => withJsonToolCalls(m)],
  ['RecordingModel', (m) => new RecordingModel(m)],
  ['wrappers stacked', (m) => new RecordingModel(withTextMarkers(withJsonToolCalls(m)))],
];

describe('model wrappers forward the wrapped model’s optional capabilities', () => {
  for (const [name, wrap] of wrappers) {
    it(`${name} passes on credentials(), so the session scrubs the key`, async () => {
      const wrapped = wrap(keyedModel());
      expect(wrapped.credentials?.()).toEqual([KEY]);
      const session = createSession({ tools: await loadTools([]), model: wrapped });
      const stream = session.send('hi');
      const messages: string[] = [];
      for await (const e of stream) if (e.type === 'model-error') messages.push(e.message);
      await stream.result.catch(() => undefined);
      expect(messages).toEqual(['model keyed answered HTTP 401: invalid api key [redacted]']);
      await session.close();
    });

    it(`${name} has no credentials() when the wrapped model has none`, () => {
      const plain: Model = { name: 'plain', stream: keyedModel().stream };
      expect(wrap(plain).credentials).toBeUndefined();
    });
  }
});
