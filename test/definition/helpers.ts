import { expect } from 'vitest';
import { DefinitionError, type DefinitionIssue } from '../../src/errors.js';
import { loadTools } from '../../src/definition/load.js';

/** A minimal valid definition; `patch` is merged over it. */
export function def(patch: Record<string, unknown> = {}, name = 'lookup'): Record<string, unknown> {
  return {
    type: 'action',
    tool: {
      type: 'function',
      function: {
        name,
        description: 'Look something up',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, id: { type: 'string' } },
          required: ['city'],
        },
      },
    },
    result: { ok: true },
    ...patch,
  };
}

/** Loads and expects a DefinitionError; returns its error issues. */
export async function loadErrors(value: unknown): Promise<DefinitionIssue[]> {
  try {
    await loadTools(value);
  } catch (error) {
    expect(error).toBeInstanceOf(DefinitionError);
    return (error as DefinitionError).issues.filter((i) => i.severity === 'error');
  }
  throw new Error('expected loading to fail');
}

/** Loads and returns the warnings. */
export async function loadWarnings(value: unknown): Promise<DefinitionIssue[]> {
  const set = await loadTools(value);
  return [...set.warnings];
}
