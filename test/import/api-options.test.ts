/**
 * importTools and exportTools called from JavaScript with options TypeScript would have refused:
 * a TypeError naming the option before anything is read, not a crash inside an importer.
 */
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';

const VAPI = [{ type: 'apiRequest', method: 'POST', url: 'https://api.x.test/o', name: 'order' }];
// The calls below are what a JavaScript caller can write; the casts stand in for no types.
const untyped = importTools as (value: unknown, options?: unknown) => unknown;
const untypedExport = exportTools as (set: unknown, options?: unknown) => unknown;

describe('importTools options', () => {
  it('names a missing options object, a missing or misspelt from, and a file that is not a string', () => {
    expect(() => untyped(VAPI)).toThrow(
      new TypeError('importTools: options: expected an object, got nothing (undefined)'),
    );
    expect(() => untyped(VAPI, {})).toThrow(
      'importTools: from: is required: the platform the JSON comes from: vapi, elevenlabs, retell, ultravox',
    );
    expect(() => untyped(VAPI, { from: 'vapy' })).toThrow(
      'importTools: from: expected "vapi" or "elevenlabs" or "retell" or "ultravox", got a string (did you mean `vapi`?)',
    );
    expect(() => untyped(VAPI, { from: 'vapi', file: 3 })).toThrow(
      'importTools: file: expected a string, got a number',
    );
    expect(untyped(VAPI, { from: 'vapi', file: 'a.json' })).toHaveProperty('tools');
  });
});

describe('exportTools options', () => {
  it('names a tools file that was not loaded first, and a missing or misspelt to', async () => {
    const set = await loadTools({
      tools: [
        {
          type: 'action',
          tool: { type: 'function', function: { name: 'hangup', parameters: { type: 'object' } } },
        },
      ],
    });
    expect(() => untypedExport({ tools: [] }, { to: 'vapi' })).toThrow(
      new TypeError(
        'exportTools: set: expected a tool set from loadTools (its tools in a Map): call loadTools first',
      ),
    );
    expect(() => untypedExport(set)).toThrow(
      'exportTools: options: expected an object, got nothing (undefined)',
    );
    expect(() => untypedExport(set, { to: 'retel' })).toThrow(
      'exportTools: to: expected "vapi" or "elevenlabs" or "retell" or "ultravox", got a string (did you mean `retell`?)',
    );
    expect(untypedExport(set, { to: 'retell' })).toHaveProperty('tools');
  });
});
