/**
 * The 2026-11 sweep of published vendor examples (fixtures/import/<platform>/, docs/import.md):
 * each defect found there, asserted on the example that showed it. What the committed imports
 * and conversation fixtures already pin (examples.test.ts) is not repeated: these are the
 * warnings that must name a field, the values that must never be copied, and the exports.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadTools } from '../../src/definition/load.js';
import { exportTools } from '../../src/import/export-tools.js';
import { importTools } from '../../src/import/import-tools.js';
import { transformCall } from '../../src/harness/transform-call.js';
import type { Platform } from '../../src/import/types.js';

function vendor(p: Platform, file: string) {
  const path = `fixtures/import/${p}/${file}`;
  return importTools(JSON.parse(readFileSync(path, 'utf8')), { from: p, file: path });
}

function warned(p: Platform, file: string): string {
  return vendor(p, file)
    .warnings.map((w) => `${w.path}: ${w.message}`)
    .join('\n');
}

async function exported(p: Platform, file: string) {
  const set = await loadTools({ tools: vendor(p, file).tools });
  return exportTools(set, { to: p });
}

describe('Vapi', () => {
  it('a handoff keeps its destination; each other field of a Vapi-run tool is named', () => {
    const [tool] = vendor('vapi', 'gitops-handoff.json').tools;
    expect(tool!.static_parameters).toEqual([
      expect.objectContaining({ name: 'destination', default: 'scheduler' }),
    ]);
    const code = warned('vapi', 'code-tool.json');
    expect(code).toMatch(/tools\[0\]\.code: Vapi runs this code in its sandbox/);
    expect(code).toMatch(/tools\[0\]\.environmentVariables: .*not imported/);
    expect(JSON.stringify(vendor('vapi', 'code-tool.json').tools)).not.toContain('your-api-key');
  });

  it("reads the code-tool page's top-level name and parameters as the function", () => {
    const [tool] = vendor('vapi', 'code-tool.json').tools;
    expect(tool!.tool.function.name).toBe('get_customer');
    expect(tool!.tool.function.parameters['required']).toEqual(['customerId']);
  });

  it('a body value "{{query}}" naming the model\'s argument forwards it, not a session variable', async () => {
    const { tools } = vendor('vapi', 'docs-agent-query.json');
    expect(tools[0]!.static_parameters).toBeUndefined();
    const out = transformCall({
      tools: await loadTools({ tools }),
      tool: 'docsquery',
      args: JSON.stringify({ query: 'api request tool' }),
      vars: { 'vars.query': 'a session value' },
    });
    expect(out.ok && out.args).toEqual({ query: 'api request tool' });
  });

  it("names a message's endCallAfterSpokenEnabled when it ends the call; false is Vapi's default", () => {
    expect(warned('vapi', 'community-warm-transfer.json')).not.toMatch(/endCallAfterSpoken/);
    const tool = JSON.parse(
      readFileSync('fixtures/import/vapi/community-warm-transfer.json', 'utf8'),
    ) as { messages: Record<string, unknown>[] };
    tool.messages[2]!['endCallAfterSpokenEnabled'] = true;
    const { warnings } = importTools(tool, { from: 'vapi' });
    expect(warnings.map((w) => w.path)).toContain('tools[0].messages[2].endCallAfterSpokenEnabled');
  });

  it('exports a transfer under its own name, and a handoff as a handoff to the assistant', async () => {
    expect((await exported('vapi', 'gitops-transfer.json')).tools).toEqual([
      {
        type: 'transferCall',
        function: { name: 'transfer_call_tool_company_1' },
        destinations: [{ type: 'number', number: '+18444398274' }],
      },
    ]);
    expect((await exported('vapi', 'gitops-handoff.json')).tools[0]).toMatchObject({
      type: 'handoff',
      function: { name: 'handoff_to_scheduler' },
      destinations: [{ type: 'assistant', assistantName: 'scheduler' }],
    });
  });

  it('exports a SIP destination as a SIP destination, not a number', async () => {
    const set = await loadTools({
      tools: [
        {
          type: 'action',
          tool: { type: 'function', function: { name: 'transferCall', parameters: {} } },
          static_parameters: [
            { name: 'destination', type: 'string', default: 'sip:desk@pbx.test' },
          ],
        },
      ],
    });
    expect(exportTools(set, { to: 'vapi' }).tools[0]).toEqual({
      type: 'transferCall',
      destinations: [{ type: 'sip', sipUri: 'sip:desk@pbx.test' }],
    });
  });

  it('says that a background endpoint runs synchronously as a Vapi apiRequest', async () => {
    const out = await exported('vapi', 'dynamic-transfer-function.json');
    expect(out.tools[0]).not.toHaveProperty('async');
    expect(out.warnings.map((w) => `${w.path}: ${w.message}`).join('\n')).toMatch(
      /tools\[0\]\.options\.background: Vapi runs apiRequest tools synchronously/,
    );
  });
});

describe('ElevenLabs', () => {
  it('reads an agent in the recommended form: built_in_tools, and a warning per tool id', () => {
    const { tools, warnings } = vendor('elevenlabs', 'agent-built-in-tools.json');
    expect(tools.map((t) => t.tool.function.name)).toEqual(['end_call']);
    expect(warnings.map((w) => w.path)).toContain('conversation_config.agent.prompt.tool_ids[0]');
  });

  it('transfer_to_agent: the agents are the destinations; every other rule setting is named', () => {
    const { tools, warnings } = vendor('elevenlabs', 'transfer-to-agent.json');
    expect(tools[0]!.tool.function.parameters['properties']).toMatchObject({
      destination: { enum: ['AGENT_ID_1', 'AGENT_ID_2'] },
    });
    const paths = warnings.map((w) => w.path);
    const rule = 'conversation_config.agent.prompt.tools[0].params.transfers[0]';
    for (const key of ['delay_ms', 'transfer_message', 'enable_transferred_agent_first_message'])
      expect(paths).toContain(`${rule}.${key}`);
    // `null` is "not set": the silent second rule has nothing to report for it.
    expect(paths).not.toContain(
      'conversation_config.agent.prompt.tools[0].params.transfers[1].transfer_message',
    );
  });

  it('exports agent destinations as transfer_to_agent, not as phone numbers', async () => {
    const out = await exported('elevenlabs', 'transfer-to-agent.json');
    expect(out.tools[0]).toMatchObject({
      params: {
        system_tool_type: 'transfer_to_agent',
        transfers: [{ agent_id: 'AGENT_ID_1' }, { agent_id: 'AGENT_ID_2' }],
      },
    });
  });

  it("keeps a body's own description for the model, and writes it back", async () => {
    const [search] = vendor('elevenlabs', 'hubspot-guide.json').tools;
    expect(search!.tool.function.parameters['description']).toBe('filters for searching contacts');
    const out = await exported('elevenlabs', 'hubspot-guide.json');
    expect(out.tools[0]).toMatchObject({
      api_schema: { request_body_schema: { description: 'filters for searching contacts' } },
    });
  });
});

describe('Retell', () => {
  it('warns once for enable_typing_sound, and never copies the cal_api_key', () => {
    const typing = vendor('retell', 'flow-custom-tool.json').warnings.filter(
      (w) => w.field === 'enable_typing_sound',
    );
    expect(typing).toHaveLength(1);
    expect(JSON.stringify(vendor('retell', 'create-llm-docs.json').tools)).not.toContain(
      'cal_live',
    );
  });
});

describe('Ultravox', () => {
  it("applies a built-in's name and description overrides; warns for the others", () => {
    const [endConversation] = vendor('ultravox', 'hang-up-overrides.json').tools;
    expect(endConversation!.tool.function).toMatchObject({
      name: 'endConversation',
      description:
        'Politely end the conversation when the user is satisfied with the help provided.',
    });
    expect(warned('ultravox', 'hang-up-soft.json')).toMatch(
      /selectedTools\[0\]\.parameterOverrides\.strict: .*not imported/,
    );
  });

  it('coldTransfer: the target is the destination; the SIP password is named, never copied', () => {
    const { tools, warnings } = vendor('ultravox', 'cold-transfer.json');
    expect(tools[0]!.static_parameters).toEqual([
      expect.objectContaining({ name: 'destination', default: 'sip:manager@mytrunk.com' }),
    ]);
    expect(warnings.map((w) => w.field)).toEqual(
      expect.arrayContaining([
        'parameterOverrides.extraHeaders',
        'parameterOverrides.sipVerb',
        'parameterOverrides.password',
      ]),
    );
    expect(JSON.stringify(tools)).not.toContain('password_for_authorized_user');
  });

  it('exports built-ins with their overrides', async () => {
    expect((await exported('ultravox', 'hang-up-overrides.json')).tools[0]).toEqual({
      toolName: 'hangUp',
      nameOverride: 'endConversation',
      descriptionOverride:
        'Politely end the conversation when the user is satisfied with the help provided.',
    });
    expect((await exported('ultravox', 'cold-transfer.json')).tools[0]).toEqual({
      toolName: 'coldTransfer',
      nameOverride: 'escalateToManager',
      descriptionOverride: 'Transfers the call to your shift manager.',
      parameterOverrides: { target: 'sip:manager@mytrunk.com' },
    });
  });

  it('says that a service exported as an httpAuth Bearer requirement is assumed', async () => {
    const out = await exported('ultravox', 'stock-header-auth.json');
    expect(out.warnings.map((w) => `${w.path}: ${w.message}`).join('\n')).toMatch(
      /tools\[0\]\.service: service "myserviceapikey" exported as an httpAuth Bearer requirement/,
    );
  });

  it('says nothing about argument locations of a tool without http (an action)', () => {
    expect(warned('ultravox', 'customer-query.json')).not.toMatch(/location/);
  });
});
