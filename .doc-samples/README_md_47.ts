import { actionResult, createSession, loadTools, mergeToolSets, openaiModel } from 'switchboard';

declare const telephony: { hangup(): Promise<void> }; // your telephony client
declare function speak(text: string): void;            // your text-to-speech

const files = ['fixtures/tools/clinic.json', 'fixtures/tools/telephony.json'];
const tools = mergeToolSets(await Promise.all(files.map((f) => loadTools(f))), 'tools');
const session = createSession({
  tools,
  model: openaiModel({ model: 'gpt-4o-mini' }),       // any OpenAI-compatible baseURL
  vars: { 'vars.hospital': 'Queens Hospital' },
  languages: ['en-US', 'es-US'],
  services: {
    clinic: {
      auth: { type: 'bearer', token: process.env.CLINIC_TOKEN! }, // unset: createSession says so
      origins: ['https://api.clinic.test'],                       // where the token may go
    },
  },
  actions: {
    hangup: async () => {
      await telephony.hangup();
      return actionResult({ endSession: true });                  // no turn after this one
    },
  },
});

for await (const event of session.send('Book me at the Bronx clinic tomorrow')) {
  if (event.type === 'text-delta') speak(event.text);
  if (event.type === 'say') speak(event.text);          // verbatim messages, bridge phrases
}
if (session.ended) await session.close();

export {};
