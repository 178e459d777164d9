/**
 * The fixture part types the testing entry exports are named through `Fixture` (so their
 * declarations name nothing a user cannot import) and stay exactly the outputs of their schemas.
 * Checked by the type checker (`npm run typecheck`); the test body only makes vitest list it.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  commandExchangeSchema,
  fixtureActionSchema,
  httpExchangeSchema,
  modelStepSchema,
  turnExpectSchema,
  turnSchema,
  type CommandExchange,
  type FixtureAction,
  type FixtureTurn,
  type HttpExchange,
  type ModelStep,
  type TurnExpect,
} from '../../src/harness/fixture-schema.js';

describe('fixture part types', () => {
  it('equal the outputs of their schemas', () => {
    expectTypeOf<FixtureTurn>().toEqualTypeOf<z.output<typeof turnSchema>>();
    expectTypeOf<TurnExpect>().toEqualTypeOf<z.output<typeof turnExpectSchema>>();
    expectTypeOf<ModelStep>().toEqualTypeOf<z.output<typeof modelStepSchema>>();
    expectTypeOf<HttpExchange>().toEqualTypeOf<z.output<typeof httpExchangeSchema>>();
    expectTypeOf<CommandExchange>().toEqualTypeOf<z.output<typeof commandExchangeSchema>>();
    expectTypeOf<FixtureAction>().toEqualTypeOf<z.output<typeof fixtureActionSchema>>();
  });
});
