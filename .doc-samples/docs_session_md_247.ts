import { createAgent, loadTools, openaiModel } from 'switchboard';

const agent = createAgent('support')
  .withSystem('You help {{vars.customer}}.')   // the system prompt, rendered as above
  .withTools(await loadTools('tools.json'))     // optional: no tools by default
  .withActions({ lookup: async (args) => ({ status: 'shipped', order: args['order_id'] }) }) // host action handlers
  .withModel(openaiModel({ model: 'gpt-4o-mini' }))
  .maxTurns(4)
  .maxToolCallsPerTurn(2)
  .withOptions({ vars: { customer: 'Acme' } })  // any other session option
  .build();

for await (const event of agent.run('Where is my order?')) console.log(event.type); // the turn's events
const text = await agent.ask('And the invoice?');                 // the final text

export {};
