import { runAgent } from 'switchboard/serve';

const out = await runAgent('What is the weather in the Bronx?', {
  tools,
  model,
  chatHistory: 'user: hi\nassistant: hello',
  memory: 'Caller prefers Spanish',
  config: { max_tool_rounds: 3, system_prompt: 'Be brief.' },
});
// { content, response_time_secs, traces: [{ tool, args?, output, duration_secs }], tools_used }

export {};
