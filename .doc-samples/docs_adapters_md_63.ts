import { generateText, stepCountIs } from 'ai';
import { openai } from '@ai-sdk/openai';
import { loadTools } from 'switchboard';
import { createAiTools } from 'switchboard/ai';

const sb = createAiTools({
  tools: await loadTools('fixtures/tools/clinic.json'),
  vars: { hospital: 'Lincoln' },
  services: {
    clinic: {
      auth: { type: 'bearer', token: process.env.CLINIC_TOKEN! },
      origins: ['https://api.clinic.test'], // where the token may go
    },
  },
  onSay: (line) => console.log('say:', line.text),      // optional: ai has no speech
});
const result = await generateText({
  model: openai('gpt-4o-mini'),
  tools: sb.tools,
  stopWhen: stepCountIs(4),
  prompt: 'Book me in the Bronx on March 20th, I am Ada Lovelace.',
});
await sb.close();

export {};
