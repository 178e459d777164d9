import { actionResult, createSession, loadTools, mergeToolSets, openaiModel } from 'switchboard';

declare function speak(text: string): void; // your text-to-speech

const files = ['fixtures/tools/clinic.json', 'fixtures/tools/telephony.json'];
const session = createSession({
  tools: mergeToolSets(await Promise.all(files.map((f) => loadTools(f))), 'tools'),
  model: openaiModel({ model: 'gpt-4o-mini' }),
  prompt: 'You are the front desk of {{vars.hospital}}.',
  vars: { 'vars.hospital': 'Queens Hospital' },
  services: {
    clinic: {
      auth: { type: 'bearer', token: process.env.CLINIC_TOKEN! },
      origins: ['https://api.clinic.test'],
    },
  },
  actions: { hangup: async () => actionResult({ endSession: true }) },
});
for await (const event of session.send('Book me at the Bronx clinic')) {
  if (event.type === 'text-delta') speak(event.text);
  if (event.type === 'say') speak(event.text);
}

export {};
