/**
 * `ParsedAgentConfig` (what `parseAgentConfig` returns, exported by switchboard/serve) is written
 * out so its declaration names nothing a user cannot import; it must stay exactly the output of
 * the schema that checks `config`. Checked by the type checker (`npm run typecheck`).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { configSchema, parseAgentConfig } from '../../src/agent-format/agent-config.js';
import type { ParsedAgentConfig } from '../../src/entries/serve.js';

describe('ParsedAgentConfig', () => {
  it('is the output of the config schema', () => {
    expectTypeOf<ParsedAgentConfig>().toEqualTypeOf<z.output<typeof configSchema>>();
    expectTypeOf(parseAgentConfig).returns.toEqualTypeOf<ParsedAgentConfig>();
  });

  it('keeps unknown keys as given', () => {
    expect(parseAgentConfig({ max_turns: 2, custom: { a: 1 } })).toEqual({
      max_turns: 2,
      custom: { a: 1 },
    });
  });
});
