import { openaiModel } from 'switchboard';
import { loadSymphony, createSymphony } from 'switchboard/symphony';

const config = await loadSymphony({ source: 'symphony.yaml' }); // or the object
const symphony = createSymphony({
  config,
  // One model for all, or a factory that gets each agent's `llm`:
  model: ({ llm }) => openaiModel({ model: llm.model ?? 'gpt-4o-mini', temperature: llm.temperature, maxTokens: llm.maxTokens }),
  actions: { send_email: async ({ to, body }) => mailer.send(to, body) }, // tool handlers, by name
  delegators: { byLanguage: ({ task }) => (/[àéç]/.test(task) ? ['fr'] : ['en']) },
});
const answer = await symphony.runAgent({ agent: 'support', task: 'Did my plan renew?' });
const team = await symphony.runTeam({ team: 'newsroom', task: 'One line on the bridge' });
const run = await symphony.runPipeline({ pipeline: 'morning', variables: { city: 'Bergen' } });

export {};
