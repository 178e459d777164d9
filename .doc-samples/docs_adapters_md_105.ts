import { Agent, run } from '@openai/agents';
import { createAgentsTools } from 'switchboard/openai-agents';

// tools and services as in the ai example above
const sb = createAgentsTools({ tools, vars: { hospital: 'Lincoln' }, services });
const agent = new Agent({ name: 'clinic', instructions: 'You book visits.', tools: sb.tools });
const result = await run(agent, 'Book me in the Bronx on March 20th.');
await sb.close();

export {};
