import { actionResult, createSession, loadTools, openaiModel } from 'switchboard';
import { connectMcpServers } from 'switchboard/mcp';

const mcp = await connectMcpServers({
  servers: {
    crm: { command: 'node', args: ['crm-server.js'], env: { CRM_TOKEN: process.env.CRM_TOKEN! } },
    kb: { url: 'https://kb.example.com/mcp', headers: { authorization: `Bearer ${kbToken}` } },
  },
  allow: { kb: ['search_articles'] }, // crm: every tool it lists
  overlays: {
    crm: {
      find_customer: {
        // Hidden from the model, filled from the session variable `tenant`.
        static_parameters: [{ name: 'tenant_id', type: 'string', default: '{{vars.tenant}}' }],
        options: { speech: { before: { phrases: { '*': ['Let me look that up.'] } } } },
      },
      create_ticket: { options: { side_effects: 'unsafe' } },
    },
  },
  tools: await loadTools('tools.yaml'), // the bot's own tools, beside the servers'
  actions: { hang_up: () => actionResult({ endSession: true }) },
});

const session = createSession({
  model: openaiModel({ model: 'gpt-4.1-mini' }),
  tools: mcp.tools,
  actions: mcp.actions,
  secrets: mcp.secrets,
  vars: { tenant: 'acme' },
  closeWith: [mcp], // a connection made for this session closes with it
});

export {};
