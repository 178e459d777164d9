import { createAgent } from 'switchboard'; // tools, openaiModel: as in the example above
const agent = createAgent('clinic').withSystem('You book clinic visits.').withTools(tools)
  .withModel(openaiModel({ model: 'gpt-4o-mini' })).maxTurns(4).maxToolCallsPerTurn(2).build();
const answer = await agent.ask('Book me at the Bronx clinic tomorrow'); // or: for await (e of agent.run(…))

export {};
