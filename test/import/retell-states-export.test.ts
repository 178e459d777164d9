/**
 * A multi-state Retell LLM imports as a step workflow (retell-states.ts); exporting to Retell
 * writes tools only (a Retell LLM's general_tools), so the warning names the states that are not
 * exported, says why, and names the tools that lose their state's limit.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';
import { cliInProcess } from '../cli/build.js';

const LLM = 'fixtures/import/retell/multi-state-llm.json';

describe('exporting a multi-state Retell LLM back to Retell', () => {
  it('warns that the states, named, are not exported and why', async () => {
    const imported = importTools(JSON.parse(readFileSync(LLM, 'utf8')), { from: 'retell' });
    const result = exportTools(await loadTools(imported.tools), { to: 'retell' });
    expect(result.tools.map((t) => t['name'])).toEqual(['end_call', 'transfer_to_support']);
    const states = result.warnings.find((w) => w.path === 'tools[2].context.task.steps');
    expect(states).toMatchObject({ tool: 'retell_states' });
    expect(states?.message).toBe(
      'the states "information_collection", "appointment_booking" (starting in "information_collection") are not exported: this export writes Retell tools (a Retell LLM\'s general_tools), and a Retell LLM\'s states, their edges and starting_state are fields of the LLM, which it does not write; recreate them in Retell. "transfer_to_support", allowed in some states only, is exported as a general tool, usable in every state',
    );
  });

  it('switchboard export --to retell prints it', async () => {
    const r = await cliInProcess([
      'export',
      '--to',
      'retell',
      'fixtures/import/retell/imported/multi-state-llm.json',
    ]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(
      'the states "information_collection", "appointment_booking" (starting in "information_collection") are not exported',
    );
  });
});
